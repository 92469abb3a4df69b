package dev.weft;

/**
 * A {@link Runnable} given to {@link JobSystem#execute} (a {@code CompletableFuture} stage, say), as a
 * job named after the Runnable's class: a failure report or shutdownNow's list then names the caller's
 * task, not an adapter of Weft's ({@code JobSystem$$Lambda/0x...} did).
 */
record ExecuteJob(Runnable task) implements Job {
    @Override
    public void run() {
        task.run();
    }

    /** What {@link PooledJob#defaultName} shows for this job. */
    String taskName() {
        return task.getClass().getName();
    }
}
