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
    // What the first job in a chain of joins threw: found once, where the chain starts, and handed up, so
    // each level of a deep chain costs the same (walking the causes at every level made a 200,000-deep
    // chain of joins take minutes to unwind after its deepest job failed).
    private final transient Throwable rootCause;

    JobFailedException(String jobName, Throwable cause) {
        this(jobName, cause, rootOf(cause));
    }

    private JobFailedException(String jobName, Throwable cause, Throwable rootCause) {
        this(jobName, "job '" + jobName + "' failed: " + describe(cause, rootCause), cause, rootCause);
    }

    /** A failure with a message of its own (a job skipped because a prerequisite failed). */
    JobFailedException(String jobName, String message, Throwable cause) {
        this(jobName, message, cause, rootOf(cause));
    }

    private JobFailedException(String jobName, String message, Throwable cause, Throwable rootCause) {
        super(message, cause);
        this.jobName = jobName;
        this.rootCause = rootCause;
    }

    /** The message a failure of {@code jobName} with {@code cause} gets (for failures made elsewhere). */
    static String messageFor(String jobName, Throwable cause) {
        return "job '" + jobName + "' failed: " + describe(cause, rootOf(cause));
    }

    /** The end of {@code cause}'s chain; a job failure met on the way already knows its own. */
    private static Throwable rootOf(Throwable cause) {
        Throwable root = cause;
        while (root != null) {
            if (root instanceof JobFailedException inner && inner.rootCause != null) {
                return inner.rootCause;
            }
            Throwable next = root.getCause();
            if (next == null || next == root) {
                return root;
            }
            root = next;
        }
        return null;
    }

    /**
     * The cause in one line. A failure that travelled up a chain of joins (a job failed because the job it
     * joined failed, ...) names the next job and the root cause only: repeating each cause's whole message
     * made a 64-deep chain's message grow with the square of its depth.
     */
    private static String describe(Throwable cause, Throwable rootCause) {
        if (cause instanceof JobFailedException inner) {
            String start = inner.chainStart();
            return "job '" + inner.jobName() + "', which it waited on, failed"
                    + (start != null && !start.equals(inner.jobName()) ? " (its prerequisites failed first at '"
                            + start + "')" : "") + "; root cause: " + rootCause;
        }
        return String.valueOf(cause);
    }

    /** Where a chain of prerequisites failed, for a job skipped because of it (Prerequisites); else null. */
    String chainStart() {
        return null;
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
