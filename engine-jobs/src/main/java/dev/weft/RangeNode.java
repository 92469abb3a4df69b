package dev.weft;

/**
 * One piece of a {@link JobSystem#parallelFor parallelFor}, enkiTS-style: when it runs it keeps
 * splitting off its upper half as a new stealable node until at most {@code grain} elements are left,
 * then runs the body on the rest. Thieves take the oldest (largest) halves first. Recycled like
 * {@link PooledJob}.
 */
final class RangeNode extends JobNode {
    RangeJob body;
    int start;
    int end;
    int grain;
    Scheduler scheduler;
    Worker home;     // the worker whose free list this node belongs to (null: made outside the workers)

    /** What parallelFor refuses, checked before anything is submitted. */
    static void checkArguments(Priority priority, int from, int to, int grain, RangeJob body) {
        if (priority == null) {
            throw new NullPointerException("priority is null: use Priority.NORMAL for ordinary jobs");
        }
        if (body == null) {
            throw new NullPointerException("body is null: pass (start, end, worker) -> { ... }");
        }
        if (grain < 1) {
            throw new IllegalArgumentException("grain must be >= 1 (the smallest range a body gets), got " + grain);
        }
        if (to < from) {
            throw new IllegalArgumentException("empty or reversed range [" + from + ", " + to + ")");
        }
    }

    @Override
    boolean tryStart() {
        markRunning();
        return true;
    }

    @Override
    void execute() {
        Fiber f = Fiber.current();
        Worker w = f != null ? f.worker() : null;       // null: a waiting thread runs us (WaitingHelp)
        int index = w != null ? w.index : scheduler.waitingHelp.workerIndex;
        int s = start;
        int e = end;
        // In long: a range may hold more than Integer.MAX_VALUE elements ([MIN_VALUE, MAX_VALUE)), and
        // (s + e) >>> 1 is the midpoint only when s + e >= 0 (a probe's [-5, 5) split at 2147483645).
        while ((long) e - s > grain) {
            int mid = (int) (s + (((long) e - s) >>> 1));
            scheduler.pushRange(w, body, mid, e, grain, counter, priority, group);
            e = mid;
        }
        end = e;                                          // a failure names this piece, not the whole range
        body.run(s, e, index);
    }

    @Override
    void complete(Scheduler s, Throwable failure, boolean cancelled, Fiber on) {
        completeCounter(s, failure, !cancelled, on);
    }

    @Override
    boolean isRecycled() {
        return body == null;                     // recycle clears it first; set before every submission
    }

    @Override
    void recycle(Worker w) {
        body = null;
        scheduler = null;
        resetForReuse();
        if (home != null) {
            w.giveBack(this, home, true);
        }
    }

    @Override
    String defaultName() {
        return "parallelFor[" + start + ", " + end + ")";
    }
}
