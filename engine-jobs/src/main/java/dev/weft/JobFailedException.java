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
    // Failures of other jobs of the same counter: the first MAX_KEPT_FAILURES kept as suppressed exceptions,
    // the rest only counted. Keeping every one made a parallelFor whose body failed on each of a million
    // indices hold 773 MB of exceptions. Both guarded by this exception's monitor, as addSuppressed is.
    static final int MAX_KEPT_FAILURES = 100;
    /** Other failures attached as suppressed exceptions, at most {@value #MAX_KEPT_FAILURES}. */
    private int keptFailures;
    /** Other failures counted beyond those attached. */
    private int failuresNotKept;

    /**
     * Recorded by a counter instead of a failure whose own JobFailedException could not be made because
     * the heap was exhausted (its message, its stack trace, the job's name: each needs memory). Made when
     * this class is initialized (a job system's constructor does that, see {@link HeapExhaustion}), with
     * no stack trace and no suppressed list, so recording it allocates nothing; shared by every counter,
     * so {@link #addOtherFailure} leaves it alone. Its cause stands in for the job's OutOfMemoryError.
     */
    static final JobFailedException HEAP_EXHAUSTED = new JobFailedException();

    JobFailedException(String jobName, Throwable cause) {
        this(jobName, cause, rootOf(cause));
    }

    private JobFailedException() {
        super("a job failed while the heap was exhausted; there was no memory to record which job or how "
                + "(the cause stands in for an OutOfMemoryError)", standInOutOfMemoryError(), false, false);
        this.jobName = "(unknown: the heap was exhausted)";
        this.rootCause = getCause();
    }

    private static OutOfMemoryError standInOutOfMemoryError() {
        OutOfMemoryError e = new OutOfMemoryError("Java heap space (a stand-in made in advance: a job's failure "
                + "could not be recorded for lack of memory)");
        e.setStackTrace(new StackTraceElement[0]);
        return e;
    }

    /**
     * What a counter records for job {@code job}, which threw {@code cause}: this failure, or when the heap
     * is exhausted and it cannot be made (nor the job's name derived), the shared {@link #HEAP_EXHAUSTED}.
     * Never throws for lack of memory: a failure that could not be recorded left its job's counter up.
     */
    static JobFailedException recorded(JobNode job, Throwable cause) {
        try {
            return new JobFailedException(job.name(), cause);   // the name only on failure: it may cost a lookup
        } catch (VirtualMachineError noRoom) {
            return HEAP_EXHAUSTED;
        }
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

    /**
     * The end of {@code cause}'s chain; a job failure met on the way already knows its own. A chain that
     * loops (a's cause b, b's cause a: some libraries build them) ends at the last exception before it
     * comes round again; walking it spun the worker, or the joiner, for ever.
     */
    private static Throwable rootOf(Throwable cause) {
        java.util.Set<Throwable> seen = null;                 // the failure path: allocating is fine
        Throwable root = cause;
        while (root != null) {
            if (root instanceof JobFailedException inner && inner.rootCause != null) {
                return inner.rootCause;
            }
            Throwable next = root.getCause();
            if (next == null || next == root) {
                return root;
            }
            if (seen == null) {
                seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            }
            seen.add(root);
            if (seen.contains(next)) {
                return root;
            }
            root = next;
        }
        return null;
    }

    /**
     * {@code String.valueOf(t)}, except that a {@code toString()} or {@code getMessage()} that throws (a
     * lazily formatted message with a bug) gives the class name and what it threw: describing a failure
     * must not fail, or the job's counter was never decremented and its waiters hung.
     */
    static String describeSafely(Throwable t) {
        try {
            return String.valueOf(t);
        } catch (Throwable whileDescribing) {
            return t.getClass().getName() + " (its toString() threw " + whileDescribing.getClass().getName() + ")";
        }
    }

    /** How a message names what failed: a job, or (a job's prerequisite) a counter. */
    String source() {
        return "job '" + jobName + "'";
    }

    /**
     * The cause in one line. A failure that travelled up a chain of joins (a job failed because the job it
     * joined failed, ...) names the next job and the root cause only: repeating each cause's whole message
     * made a 64-deep chain's message grow with the square of its depth.
     */
    private static String describe(Throwable cause, Throwable rootCause) {
        if (cause instanceof JobFailedException inner) {
            String start = inner.chainStart();
            return inner.source() + ", which it waited on, failed"
                    + (start != null && !start.equals(inner.jobName()) ? " (its prerequisites failed first at '"
                            + start + "')" : "") + "; root cause: " + describeSafely(rootCause);
        }
        return describeSafely(cause);
    }

    /**
     * Another job of the same counter failed too: attached as a suppressed exception, or only counted once
     * {@value #MAX_KEPT_FAILURES} are attached (the count then ends the message).
     */
    synchronized void addOtherFailure(Throwable other) {
        if (this == HEAP_EXHAUSTED) {
            return;                              // shared by every counter: it keeps nothing
        }
        if (keptFailures < MAX_KEPT_FAILURES) {
            try {
                addSuppressed(other);            // its list allocates: the heap may be exhausted
                keptFailures++;
                return;
            } catch (VirtualMachineError noRoom) {
                // counted below instead
            }
        }
        if (failuresNotKept < Integer.MAX_VALUE) {
            failuresNotKept++;
        }
    }

    /** Copies the other failures of {@code from} (kept and counted) onto this one. */
    synchronized void addOtherFailuresOf(JobFailedException from) {
        for (Throwable s : from.getSuppressed()) {
            addOtherFailure(s);
        }
        int notKept;
        synchronized (from) {
            notKept = from.failuresNotKept;
        }
        failuresNotKept = (int) Math.min(Integer.MAX_VALUE, (long) failuresNotKept + notKept);
    }

    /**
     * How many other jobs of the same counter failed beyond the {@value #MAX_KEPT_FAILURES} attached as
     * suppressed exceptions: {@code 1 + getSuppressed().length + failuresNotKept()} jobs failed in all.
     *
     * @return the failures counted but not kept; 0 when every one is attached
     */
    public synchronized int failuresNotKept() {
        return failuresNotKept;
    }

    /**
     * The message; when more jobs of the counter failed than are attached as suppressed exceptions, it
     * ends with how many more failed.
     */
    @Override
    public String getMessage() {
        int notKept;
        synchronized (this) {
            notKept = failuresNotKept;
        }
        String message = super.getMessage();
        return notKept == 0 ? message : message + " (and " + notKept + " more failures of the same counter, not kept)";
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
