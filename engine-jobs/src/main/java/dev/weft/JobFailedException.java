package dev.weft;

/**
 * A job threw. Thrown to whoever waits on the job's counter or handle; {@link #getCause()} is what the
 * job threw, and the message names the job. When several jobs of one counter fail, the first failure is
 * the cause and the others are attached as suppressed exceptions.
 */
public class JobFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String jobName;

    JobFailedException(String jobName, Throwable cause) {
        super("job '" + jobName + "' failed: " + cause, cause);
        this.jobName = jobName;
    }

    /** The name of the job that failed first. */
    public String jobName() {
        return jobName;
    }
}
