package dev.weft;

/**
 * jcstress only: a {@link JobHandle} outside any job system, its end ({@code complete}, as the fiber
 * that ran it calls it) and the package-private counter a waiter installs ({@code counterToWaitOn}).
 */
public final class HandleEnds {
    private HandleEnds() {}

    /** A handle of a job that returns 42, never queued: the test plays the worker. */
    public static JobHandle<Integer> newHandle() {
        return new JobHandle<>(null, "jcstress", Priority.NORMAL, () -> 42, null, null);
    }

    /** The worker's side: runs the job's body, then ends the handle as {@code JobNode.finishRun} does. */
    public static void runAndEnd(JobHandle<Integer> h) {
        try {
            h.execute();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        h.complete(null, null, false, null);
    }

    /** A waiter's side: the counter to wait on (made and installed if none is), or null if it has ended. */
    public static Counter counterToWaitOn(JobHandle<Integer> h) {
        return h.counterToWaitOn();
    }
}
