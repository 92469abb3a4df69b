package dev.weft;

import dev.weft.internal.WorkStealingDeque;

/**
 * Every worker's deques as the other threads reach them: thieves, the pre-park re-check, a waiting thread
 * that helps. A read-only table, filled once, so a scan of the victims reads no {@link Worker} (only a
 * thief that finds one lone ready fiber reads the victim's {@code parkState}, which has padded lines of its
 * own: see WorkerLayout).
 *
 * <p>Why: a {@code Worker} keeps its deque arrays next to fields its owner writes on every job
 * ({@code pollCount}, {@code heldEnded}, {@code next}). A thief reading {@code v.jobs[p]} there pulled
 * that line across on every scan, and the owner's next write took it back: about 2 × 140 ns per job
 * switch on each of 2 workers in a {@code parallelFor} of 1,024 ranges, measured by timing each step of
 * the switch (2026-12-05). Every worker scans FRAME, the first priority, before its own NORMAL work,
 * so the scan ran on every switch.
 *
 * <p>Layout: one array per kind, with {@value #PAD} empty slots before and after the used ones. A
 * reference is at least 4 bytes, so 128 bytes (two lines, for the adjacent-line prefetcher) separate the
 * used slots from whatever the heap puts before or after the array: the garbage collector may move it
 * next to anything, and an array's slots keep their order.
 */
final class StealTargets {
    static final int PAD = 32;

    private final JobDeque[] jobs;
    private final WorkStealingDeque<Object>[] ready;
    private final int workerCount;

    @SuppressWarnings("unchecked")
    StealTargets(Worker[] workers) {
        workerCount = workers.length;
        int used = workerCount * Priority.COUNT;
        jobs = new JobDeque[PAD + used + PAD];
        ready = (WorkStealingDeque<Object>[]) new WorkStealingDeque<?>[PAD + used + PAD];
        for (Worker w : workers) {
            for (int p = 0; p < Priority.COUNT; p++) {
                jobs[slot(w.index, p)] = w.jobs[p];
                ready[slot(w.index, p)] = w.ready[p];
            }
        }
    }

    private static int slot(int worker, int priority) {
        return PAD + worker * Priority.COUNT + priority;
    }

    /** Worker {@code worker}'s deque of new jobs of priority {@code priority}. */
    JobDeque jobs(int worker, int priority) {
        return jobs[slot(worker, priority)];
    }

    /** Worker {@code worker}'s deque of ready fibers of priority {@code priority}. */
    WorkStealingDeque<Object> ready(int worker, int priority) {
        return ready[slot(worker, priority)];
    }

    /** How many workers the table holds (indices 0 to this minus one). */
    int workerCount() {
        return workerCount;
    }

    /** Whether worker {@code worker} looked to hold new jobs or ready fibers of {@code priority} (reads {@code bottom}: off the job path). */
    boolean hasQueued(int worker, int priority) {
        JobDeque j = jobs(worker, priority);
        return !j.isEmpty() || !ready(worker, priority).isEmpty() || j.hasOverflow();
    }

    /** For the layout test: the two arrays, whose slots {@code [PAD, length - PAD)} are the used ones. */
    Object[][] arraysForTests() {
        return new Object[][] {jobs, ready};
    }
}
