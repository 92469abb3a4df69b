package dev.weft;

/**
 * A fire-and-forget job ({@link JobSystem#run}): recycled through the worker that finished it, so a job
 * that never waits allocates nothing in steady state. Nobody holds a handle to it, so its only
 * cancellers are its group's flag (checked at start) and {@code shutdownNow}, which takes it out of a
 * queue by stealing — exclusive with a worker popping it — so starting needs no CAS.
 */
final class PooledJob extends JobNode {
    private static final int MAX_FREE_PER_WORKER = 4096;

    Job job;

    @Override
    boolean tryStart() {
        markRunning();
        return true;
    }

    @Override
    void execute() throws Throwable {
        job.run();
    }

    @Override
    void complete(Throwable failure, boolean cancelled) {
        Counter c = counter;
        Scheduler.completeCounter(this, c, failure);
    }

    @Override
    void recycle(Worker w) {
        job = null;
        counter = null;
        group = null;
        name = null;
        resetState();
        if (w.freeJobs.size() < MAX_FREE_PER_WORKER) {
            w.freeJobs.push(this);
        }
    }

    @Override
    String defaultName() {
        Job j = job;
        return j == null ? "job" : j.getClass().getName();
    }
}
