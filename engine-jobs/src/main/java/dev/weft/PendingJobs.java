package dev.weft;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The scheduler's side of {@link Prerequisites}: jobs accepted with prerequisites that have not completed
 * yet. No queue holds them, so {@code shutdownNow} finds them here, to cancel them and list them among the
 * jobs that never ran. Whoever takes a job out of the set owns it: the release that completes its last
 * prerequisite queues it, {@code shutdownNow} cancels it; the other finds it gone and leaves it alone.
 * Off the job path: one add and one remove per job with prerequisites.
 */
final class PendingJobs {
    private final Scheduler scheduler;
    // Each job with its Release, whose continuation nodes the taker of a job it will not release drops.
    private final ConcurrentHashMap<JobNode, Prerequisites.Release> jobs = new ConcurrentHashMap<>();

    PendingJobs(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * A job with prerequisites, at the call that submits it: refused as a submit would be; otherwise its
     * group is settled and its counter counts it from now on, though it is queued only by
     * {@link #release}, when its prerequisites complete.
     */
    void accept(JobNode j, Prerequisites.Release release, String what) {
        Scheduler s = scheduler;
        if (j.counter != null) {
            s.noteHelpScheduler(j.counter);
        }
        Worker w = Worker.current(s);
        boolean outside = w == null;
        int runState = s.runState();
        if (runState >= Scheduler.STOPPING || (outside && !s.outsideMayAdd(runState, false))) {
            throw s.rejected(what);
        }
        if (j.group == null) {
            j.group = outside ? (s.waitingHelp != null ? Scheduler.inheritedGroupOutside() : null)
                    : s.inheritedGroup(w);
        }
        if (j.counter != null) {
            j.counter.add(1);
        }
        // Added, then the run state read again (both volatile): shutdownNow writes the run state, then
        // scans the set, so it sees the job or we see STOPPING. Seeing it, we take the job back unless
        // shutdownNow has it already (cancelled and listed: the unit added above is completed there).
        jobs.put(j, release);
        if (s.runState() >= Scheduler.STOPPING && take(j) != null) {
            if (j.counter != null) {
                j.counter.decrement(1);
            }
            throw s.rejected(what);
        }
    }

    /**
     * Queues a job whose prerequisites completed, on the thread whose decrement completed the last one
     * (a worker pushes onto its own deque; any other thread injects). Accepted while closing, from any
     * thread: it was submitted before the close. After shutdownNow, or once terminated, it is cancelled
     * instead (counted, its counter and handle completed). Never throws: it runs inside a decrement.
     */
    void release(JobNode j) {
        if (take(j) == null || j.state() != JobNode.NEW) {
            return;                                    // shutdownNow or its handle's cancel() completed it
        }
        Scheduler s = scheduler;
        Worker w = Worker.current(s);
        if (w != null && s.runState() < Scheduler.STOPPING) {
            s.pushOwn(w, j);
            return;
        }
        s.externalSubmitters.incrementAndGet();        // before reading the run state: see Scheduler, "Shutdown"
        try {
            int rs = s.runState();
            if (rs >= Scheduler.STOPPING) {
                j.cancelBeforeStart(s);
                return;
            }
            Runnable hook = rs == Scheduler.CLOSING ? s.beforeLateInjectForTests : null;
            if (hook != null) {
                hook.run();
            }
            s.inject(j);
            // A thread that is no worker may release while CLOSING (the job was accepted before the close),
            // and nothing kept the system up for it: the last worker may have read externalSubmitters = 0
            // and made its last scan before our offer, and then terminate. Our offer (a CAS), then this
            // volatile read; the terminator writes TERMINATED, then drains (Scheduler.markTerminated): one
            // of the two sees the other, and the job is cancelled by whichever polls it. Before, it stayed
            // in the queue, neither run nor cancelled, and its counter stayed up (SYNCHRONIZATION.md §5,
            // "A pending job released from outside"; LateReleaseTerminationTest).
            if (s.isTerminated()) {
                s.picker.cancelAllQueued(s);
            }
        } finally {
            s.externalSubmitters.decrementAndGet();
        }
    }

    /**
     * A job completed as cancelled (a pending handle's {@code cancel()}): nothing will release it now. If
     * still here, its continuations are dropped: a counter that never completes (cancelled speculative
     * work queued behind a level-streaming counter) kept each job, its closure and its node (~540 B plus
     * the captured state) until it did; now it keeps a dead node until its next pushes sweep it.
     */
    void forget(JobNode job) {
        if (!jobs.isEmpty()) {
            Prerequisites.Release r = take(job);
            if (r != null) {
                r.drop();
            }
        }
    }

    /**
     * {@code shutdownNow}, after it set the run state: cancels every job still here, each completing its
     * counter and handle and reported in the cancelled list. A job added after this scan began is seen by
     * its own {@link #accept}, which reads the run state after its add.
     */
    void cancelAll() {
        for (JobNode job : jobs.keySet()) {
            Prerequisites.Release r = take(job);
            if (r != null) {
                job.cancelBeforeStart(scheduler);      // a handle cancelled earlier is complete already: no-op
                r.drop();                              // its prerequisites may never complete: free the nodes
            }
        }
    }

    /**
     * Every job here with its release, for {@link WaitCycle} (jobs waiting for prerequisites are vertices
     * of the wait graph) and the watchdog. A weakly consistent walk of the map: no lock the job path
     * takes, no ConcurrentModificationException; a job added or taken meanwhile may be seen or not.
     * Nothing is added to the job path for it: the map is the one {@code shutdownNow} already needs.
     */
    void forEach(java.util.function.BiConsumer<JobNode, Prerequisites.Release> action) {
        jobs.forEach(action);
    }

    /** The job's release if the caller took {@code job} and now owns it; null if someone else had already. */
    private Prerequisites.Release take(JobNode job) {
        return jobs.remove(job);
    }
}
