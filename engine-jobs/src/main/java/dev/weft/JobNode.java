package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What the queues hold for a job that has not started: the work, its counter, priority, group and the
 * one-way state machine that makes "runs exactly once or is cancelled exactly once" a single CAS.
 *
 * <pre>
 *   NEW --tryStart (CAS)--> RUNNING --finish--> DONE
 *   NEW --tryCancel (CAS)-> CANCELLED
 * </pre>
 * Whichever CAS wins decides; the loser does nothing. Both paths complete the counter exactly once.
 */
abstract class JobNode {
    static final int NEW = 0;
    static final int RUNNING = 1;
    static final int DONE = 2;
    static final int CANCELLED = 3;

    private static final VarHandle STATE;
    private static final VarHandle CANCEL_REQUESTED;
    private static final VarHandle RUNNER;
    /** {@link JobDeque}'s claim: see {@link #dequeStamp}. */
    static final VarHandle DEQUE_STAMP;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(JobNode.class, "state", int.class);
            CANCEL_REQUESTED = l.findVarHandle(JobNode.class, "cancelRequested", boolean.class);
            RUNNER = l.findVarHandle(JobNode.class, "runner", Fiber.class);
            DEQUE_STAMP = l.findVarHandle(JobNode.class, "dequeStamp", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // The hot path writes these without fences: a recycled node is private to its worker until the
    // release store of a deque push publishes it again.
    private volatile int state;          // NEW/RUNNING/DONE/CANCELLED; CAS to leave NEW, see class comment
    // The deque this node was last pushed to and its index there, CLAIMED set by the CAS that took it
    // (JobDeque). 0: never pushed. Written by the pushing owner (release) before the slot's release store.
    @SuppressWarnings("unused")          // through DEQUE_STAMP
    private volatile long dequeStamp;
    private boolean cancelRequested;     // volatile write by cancel() while RUNNING; volatile read by the job
    private Fiber runner;                // release store at start (handles only); acquire read by cancel()
    Counter counter;                     // decremented once when the job ends; written before publication
    JobNode enclosing;                   // the job this one runs nested in (inline help), or null
    JobGroup group;                      // cancellation scope, inherited from the submitting job
    int priority;                        // Priority ordinal
    String name;                         // for errors, traces and the watchdog; null = derive lazily
    JobNode nextFree;                    // the next node on its worker's free list (FreeNodes), owner-only

    /** Runs the work on the current fiber. Throws what the work throws. */
    abstract void execute() throws Throwable;

    /**
     * Called exactly once after the job ran (failure null if it succeeded) or was cancelled; {@code s}
     * is the job system it ran in (its uncaught-failure handler), null only for a cancellation;
     * {@code on} is the fiber it ran on, or null (not on a fiber, or cancelled): see {@link #completeCounter}.
     */
    abstract void complete(Scheduler s, Throwable failure, boolean cancelled, Fiber on);

    /** A readable name: the given one, or the job's class. */
    String name() {
        String n = name;
        return n != null ? n : defaultName();
    }

    abstract String defaultName();

    /** A wait on {@code c} depends on this job ending (WaitingHelp). */
    boolean isAwaitedBy(Counter c) {
        return counter == c;
    }

    /** Clears what every kind of job carries, before a pooled node goes back to a free list. */
    final void resetForReuse() {
        counter = null;
        group = null;
        name = null;
        resetState();
    }

    final void resetState() {
        STATE.setOpaque(this, NEW);
        CANCEL_REQUESTED.setOpaque(this, false);
    }

    /** Asks a running job to stop (volatile: ordered before the canceller reads the runner's wait). */
    final void requestCancel() {
        CANCEL_REQUESTED.setVolatile(this, true);
    }

    final void setRunner(Fiber f) {
        RUNNER.setRelease(this, f);
    }

    final Fiber runner() {
        return (Fiber) RUNNER.getAcquire(this);
    }

    final int state() {
        return state;
    }

    /**
     * A pooled node given back after it completed (its work cleared by {@link #recycle}): NEW again with
     * no counter, but nothing to run. Cold: only HeapExhaustion asks, to tell it from a job never started.
     */
    boolean isRecycled() {
        return false;
    }

    /** Gives a finished node back to {@code w}'s free list (pooled kinds only). */
    void recycle(Worker w) {
    }

    /**
     * A finished node that a waiting thread ran (WaitingHelp), not a worker: back to that thread's own
     * free list if it came from there (pooled kinds only), else left to the garbage collector.
     */
    void recycleOnOutsideThread() {
    }

    /** Plain start for kinds nobody else can cancel while queued (see {@link PooledJob}). */
    final void markRunning() {
        STATE.setOpaque(this, RUNNING);
    }

    /** NEW → RUNNING. False if the job was cancelled first. */
    boolean tryStart() {
        return STATE.compareAndSet(this, NEW, RUNNING);
    }

    /** NEW → CANCELLED. False if the job already started (or finished, or was cancelled). */
    final boolean tryCancel() {
        return STATE.compareAndSet(this, NEW, CANCELLED);
    }

    final void markDone() {
        STATE.setRelease(this, DONE);
    }

    /**
     * What Jobs.isCancelled() answers in job {@code j} (null: none) of {@code s}, on a fiber or a waiting
     * thread: true if the job's own cancel, its group's, or the system's shutdownNow asks it to stop.
     */
    static boolean cancellationRequested(JobNode j, Scheduler s) {
        return (j != null && j.isCancellationRequested()) || s.isStopping();
    }

    final boolean isCancellationRequested() {
        JobGroup g = group;
        return (boolean) CANCEL_REQUESTED.getVolatile(this) || (g != null && g.isCancelled());
    }

    // ------------------------------------------------------------------ starting and completing

    /**
     * Decides at start whether this job runs (true) or is cancelled (completed, counted). A job a worker
     * has taken out of a queue starts even after shutdownNow(), with {@link Jobs#isCancelled()} true:
     * taking it (pop, steal or poll) is exclusive with shutdownNow's drain, so every job either is in the
     * list shutdownNow returns or ran — none is cancelled after that list was made and missing from it.
     */
    final boolean admit(Scheduler s) {
        if (isCancellationRequested()) {
            cancelBeforeStart(s);
            return false;
        }
        return tryStart();                 // false: its handle's cancel() won and completed it
    }

    /**
     * This job ended after running, on the current thread (a fiber, a worker's carrier, or the main
     * thread): count it, complete it, recycle it.
     */
    final void finishRun(Scheduler s, Throwable failure) {
        finishRun(s, failure, null);
    }

    /**
     * The worker the current thread is on now: fiber {@code on}'s (a field read, {@link Fiber#worker}), or
     * for {@code on} null the carrier lookup (null: not a worker of {@code s}).
     */
    private static Worker workerOf(Scheduler s, Fiber on) {
        return on != null ? on.worker() : Worker.current(s);
    }

    /**
     * As above, for a job that ran on fiber {@code on} (null: the current thread is no fiber of {@code s}):
     * the fiber knows its worker ({@link Fiber#worker}, a field), so no carrier lookup is needed.
     */
    final void finishRun(Scheduler s, Throwable failure, Fiber on) {
        Worker ran = workerOf(s, on);
        if (ran != null) {
            ran.count(Worker.JOBS_RUN);
        }
        markDone();
        // A job that ends by throwing JobCancelledException after being asked to stop honoured the
        // cancellation: it completes as cancelled, not failed (its counter records no failure). So does
        // one that ends with the InterruptedException of shutdownNow's interrupt (Fiber.interruptJob).
        boolean honouredCancel = (failure instanceof JobCancelledException || failure instanceof InterruptedException)
                && (isCancellationRequested() || s.isStopping());
        if (honouredCancel) {
            // Its work did not all happen either, as for a job cancelled before it started: a runAndWait
            // whose second job stopped midway for its group's cancel returned normally, half its sum missing.
            markCounterSkipped();
        }
        try {
            complete(s, honouredCancel ? null : failure, honouredCancel, on);
        } catch (Throwable t) {
            // A misuse (a counter decremented below zero), or an Error of the bookkeeping itself (the heap
            // exhausted while completing a future or reporting): the counter was completed regardless.
            HeapExhaustion.completionThrew(s, this, t);
        }
        // complete() ran user code (the uncaught-failure handler, CompletableFuture dependents), which may
        // have parked this fiber and resumed it on another worker: the free list the node goes to is the
        // one of the worker we are on now, never the one we started on (its owner may be using it).
        Worker now = workerOf(s, on);   // asked again: see above
        if (now != null) {
            recycle(now);
        }
    }

    /** NEW → CANCELLED, if this call wins the CAS: complete the job as cancelled and report it. */
    final void cancelBeforeStart(Scheduler s) {
        if (tryCancel()) {
            completeCancelled(s);
        }
    }

    /**
     * Completes this job after the caller won its NEW → CANCELLED CAS: exactly once per job, so a node
     * cancelled through its handle and later found in a queue (by a worker, a group cancel or
     * shutdownNow) is not completed again — its CAS fails there.
     */
    final void completeCancelled(Scheduler s) {
        completeCancelled(s, false);
    }

    /**
     * {@link #completeCancelled(Scheduler)}; {@code listForShutdownNow} lists the job for shutdownNow's
     * report even before STOPPING (close() cancelling main-thread jobs nobody will run). One decision per
     * job, here: a caller that listed it itself as well once reported it twice when the workers reached
     * TERMINATED (≥ STOPPING) between close()'s call and its own list.
     */
    final void completeCancelled(Scheduler s, boolean listForShutdownNow) {
        markCounterSkipped();
        try {
            if (s != null) {
                s.reportCancelled(this, listForShutdownNow);   // first: whoever sees the counter at zero finds it counted
                s.pendingJobs.forget(this);
            }
        } finally {
            complete(s, null, true, null);   // even if listing it ran out of memory: its counter must complete
        }
    }

    /**
     * This job ended cancelled, before it started or by stopping for its cancellation: its counter's
     * blocking fan-out, or a cancelled job's wait on it, must not return as if all its work had run
     * (Counter.skippedJobs). Written before the counter's decrement (complete), which publishes it.
     */
    private void markCounterSkipped() {
        Counter c = counter;
        if (c != null && !c.skippedJobs) {
            c.skippedJobs = true;
        }
    }

    /**
     * Completes this job's counter; a failure nobody can observe goes to the uncaught-failure handler.
     * A job that ran and succeeded on a worker ({@code ran}) has its decrement held back by that worker
     * (Worker.holdEnded); a cancelled one is subtracted at once, since whoever cancelled it (a group
     * cancel inside a long job, say) may go on running for long before any flush point.
     */
    final void completeCounter(Scheduler s, Throwable failure, boolean ran, Fiber on) {
        Counter c = counter;
        Worker w;
        if (c != null) {
            if (ran && failure == null && s != null
                    && (w = workerOf(s, on)) != null) {
                w.holdEnded(c);                  // subtracted with others (Worker.holdEnded, §13)
            } else {
                c.jobEnded(this, failure);       // a failure is recorded and counted at once
            }
        } else if (failure != null && !(this instanceof JobHandle) && !(failure instanceof JobCancelledException)) {
            // s is given, not looked up from the thread: a job a waiting thread ran completes after that
            // thread's ThreadLocals are back, where no seat is found (its failure went to stderr).
            if (s != null) {
                String job = name();
                if (on != null) {
                    on.failureHandlerJob = job;   // the watchdog names a handler that blocks (a full pipe)
                }
                try {
                    s.uncaughtFailureHandler.accept(job, failure);
                } finally {
                    if (on != null) {
                        on.failureHandlerJob = null;
                    }
                }
            } else {
                System.err.println("weft: job '" + name() + "' failed and nobody waits for it: " + failure);
            }
        }
    }
}
