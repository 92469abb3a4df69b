package dev.weft;

/**
 * A fire-and-forget job ({@link JobSystem#run}): recycled through the worker that finished it, so a job
 * that never waits allocates nothing in steady state. Nobody holds a handle to it, so its only
 * cancellers are its group's flag (checked at start) and {@code shutdownNow}, which takes it out of a
 * queue by stealing — exclusive with a worker popping it — so starting needs no CAS.
 */
final class PooledJob extends JobNode {
    Job job;
    Worker home;     // the worker whose free list this node belongs to (null: made outside the workers)
    OutsideNodes outsideHome;   // made outside the workers: the thread whose nodes it comes back to

    /** A recycled fire-and-forget node of worker {@code w} (null: outside the workers), or a new one. */
    static PooledJob take(Worker w) {
        if (w == null) {
            // A platform thread keeps its nodes; a virtual thread may live for one job (a Weft fiber of
            // another system even drops its ThreadLocals after each job), so it allocates the node.
            if (Thread.currentThread().isVirtual()) {
                return new PooledJob();
            }
            return OutsideNodes.ofCurrentThread().take();
        }
        PooledJob j = (PooledJob) w.takeFree(w.freeJobs, w.returnedJobs);
        if (j == null) {
            j = new PooledJob();
            j.home = w;
        }
        return j;
    }

    /**
     * The outside thread that owns this node, as it takes a batch home: plain stores of what the node
     * already holds (reset by the worker before the offer), into both of its cache lines (72 bytes: the
     * stores at 24, 36 and 56 cover every line a submission writes, whatever the alignment). The lines are
     * in the finishing worker's cache; fetched here for all 32 nodes in one loop, with no locked
     * instruction between, their transfers overlap. Without it each submission's first locked instruction
     * (the counter's add) waited for its own node's transfer. Null stores skip G1's barrier.
     */
    void fetchLinesForWriting() {
        priority = 0;
        counter = null;
        job = null;
    }

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
    void complete(Scheduler s, Throwable failure, boolean cancelled, Fiber on) {
        completeCounter(s, failure, !cancelled, on);
    }

    @Override
    boolean isRecycled() {
        return job == null;                      // recycle clears it first; set before every submission
    }

    @Override
    void recycle(Worker w) {
        job = null;
        resetForReuse();
        if (home != null) {
            w.giveBack(this, home, false);
        } else if (outsideHome != null) {
            w.giveBackOutside(this);
        }
    }

    /**
     * The game's main thread submits a frame's jobs and then helps run them while it waits: a node it
     * made and ran itself goes straight back to its own free list (same thread, no ordering to add), so
     * such a frame allocates nothing. Before, each one was dropped and the next submission made a new one.
     */
    @Override
    void recycleOnOutsideThread() {
        OutsideNodes h = outsideHome;
        if (h != null && h.owner == Thread.currentThread()) {
            job = null;
            resetForReuse();
            h.takeBack(this);
        }
    }

    @Override
    String defaultName() {
        Job j = job;
        return j == null ? "job" : j instanceof ExecuteJob e ? e.taskName() : j.getClass().getName();
    }
}
