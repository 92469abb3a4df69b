package dev.weft;

/**
 * A job threw. Thrown to whoever waits on the job's counter or handle; {@link #getCause()} is what the
 * job threw, and the message names the job. When several jobs of one counter fail, the first failure is
 * the cause and the others are attached as suppressed exceptions.
 */
public class JobFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The failed job's name, as {@link #jobName()} returns it. */
    private final String jobName;

    JobFailedException(String jobName, Throwable cause) {
        super("job '" + jobName + "' failed: " + describe(cause), cause);
        this.jobName = jobName;
    }

    /**
     * The cause in one line. A failure that travelled up a chain of joins (a job failed because the job it
     * joined failed, ...) names the next job and the root cause only: repeating each cause's whole message
     * made a 64-deep chain's message grow with the square of its depth.
     */
    private static String describe(Throwable cause) {
        if (cause instanceof JobFailedException inner) {
            Throwable root = inner;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            return "job '" + inner.jobName() + "', which it waited on, failed; root cause: " + root;
        }
        return String.valueOf(cause);
    }

    /**
     * The name of the job that failed first.
     *
     * @return the failed job's name
     */
    public String jobName() {
        return jobName;
    }
}
