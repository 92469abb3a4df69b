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

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(JobNode.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int state;          // NEW/RUNNING/DONE/CANCELLED; CAS only, see class comment
    volatile boolean cancelRequested;    // set by cancel() while RUNNING; the job polls it
    volatile Fiber runner;               // the fiber running this job (RUNNING only), for waking its wait
    Counter counter;                     // decremented once when the job ends; written before publication
    JobGroup group;                      // cancellation scope, inherited from the submitting job
    int priority;                        // Priority ordinal
    String name;                         // for errors, traces and the watchdog; null = derive lazily

    /** Runs the work on the current fiber. Throws what the work throws. */
    abstract void execute() throws Throwable;

    /** Called exactly once after the job ran (failure null if it succeeded) or was cancelled. */
    abstract void complete(Throwable failure, boolean cancelled);

    /** A readable name: the given one, or the job's class. */
    String name() {
        String n = name;
        return n != null ? n : defaultName();
    }

    abstract String defaultName();

    final void resetState() {
        STATE.setOpaque(this, NEW);
        cancelRequested = false;
        runner = null;
    }

    final int state() {
        return state;
    }

    /** Gives a finished node back to {@code w}'s free list (pooled kinds only). */
    void recycle(Worker w) {
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

    /** True if the job's own cancel, its group's, or the system's shutdownNow asks it to stop. */
    final boolean isCancellationRequested() {
        JobGroup g = group;
        return cancelRequested || (g != null && g.isCancelled());
    }
}
