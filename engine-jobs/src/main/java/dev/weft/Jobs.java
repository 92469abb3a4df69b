package dev.weft;

/**
 * Questions a running job asks about itself.
 *
 * <pre>{@code
 * jobs.run(() -> {
 *     for (Chunk c : chunks) {
 *         Jobs.checkCancelled();      // stop early when the level is unloaded
 *         stream(c);
 *     }
 * });
 * }</pre>
 */
public final class Jobs {
    private Jobs() {}

    /** True if the current thread is a Weft fiber (that is, running a job on a worker). */
    public static boolean inFiber() {
        return Fiber.current() != null;
    }

    /**
     * The index of the worker running the current job (0 to workerCount − 1). A job that waits may
     * resume on another worker, so read it again after a wait.
     *
     * @throws IllegalStateException outside a job
     */
    public static int workerIndex() {
        return requireFiber("workerIndex").worker().index;
    }

    /** The current job's name. @throws IllegalStateException outside a job */
    public static String currentJobName() {
        JobNode j = requireFiber("currentJobName").currentJob;
        return j == null ? "(none)" : j.name();
    }

    /**
     * True if the current job was asked to stop: its handle's {@code cancel()}, its group's, or the job
     * system's {@code shutdownNow()}. False outside a job.
     */
    public static boolean isCancelled() {
        Fiber f = Fiber.current();
        return f != null && f.cancellationRequested();
    }

    /** Throws {@link JobCancelledException} if {@link #isCancelled()}. */
    public static void checkCancelled() {
        Fiber f = Fiber.current();
        if (f != null && f.cancellationRequested()) {
            JobNode j = f.currentJob;
            throw new JobCancelledException("job '" + (j == null ? "?" : j.name()) + "' was cancelled");
        }
    }

    private static Fiber requireFiber(String call) {
        Fiber f = Fiber.current();
        if (f == null) {
            throw new IllegalStateException("Jobs." + call + "() works only inside a job running on a Weft "
                    + "fiber, but was called on " + Thread.currentThread()
                    + "; pass the value in from the job instead");
        }
        return f;
    }
}
