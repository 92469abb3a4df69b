package dev.weft;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Waiting for a job system's termination: the latch every worker counts down as it exits (after the
 * termination decision and after retiring its idle fibers), and the two ways of waiting on it, which also
 * decide what happens to main-thread jobs nobody will run.
 *
 * <p>Whoever sees the latch open cancels what is left in the main-thread mailbox: every post accepted
 * before termination is in it by then ({@link MainThreadMailbox#post}; SYNCHRONIZATION.md §5).
 */
final class TerminationWait {
    private final Scheduler scheduler;
    private final CountDownLatch workersLeft;

    TerminationWait(Scheduler scheduler, int workerCount) {
        this.scheduler = scheduler;
        this.workersLeft = new CountDownLatch(workerCount);
    }

    /** On an exiting worker, last thing. */
    void workerExited() {
        workersLeft.countDown();
    }

    boolean workersExited() {
        return workersLeft.getCount() == 0;
    }

    /** awaitTermination and close(): runs main-thread jobs meanwhile if called on the main thread. */
    boolean await(Duration timeout) throws InterruptedException {
        Scheduler s = scheduler;
        if (Worker.current(s) != null) {
            throw new IllegalStateException("awaitTermination/close called from inside a job of '" + s.name()
                    + "': the system cannot stop while that job runs, so it would wait for itself. Call "
                    + "shutdown() from the job, and wait for termination on another thread.");
        }
        MainThreadMailbox mainThread = s.mainThread;
        long deadline = System.nanoTime() + Math.max(0, Timeouts.saturatedNanos(timeout));
        boolean owner = mainThread.owner() == Thread.currentThread();
        for (;;) {
            boolean ownerGone = false;
            if (owner) {
                // One at a time, and only before the deadline, as a timed counter wait does: a wait overruns
                // by the job in hand at most. Running the whole queue first made awaitTermination(ZERO) run
                // every queued upload before it answered. close() waits in 100 ms rounds, so it still runs
                // them all, round after round, until the workers have exited.
                while (deadline - System.nanoTime() > 0 && mainThread.runOneWhileWaiting()) {
                    // the loop's condition runs the job
                }
            } else {
                ownerGone = mainThread.cancelQueuedIfOwnerGone();
            }
            long remaining = deadline - System.nanoTime();
            boolean exited;
            if (remaining <= 0) {
                // Terminated since the last slice: the same end as below. Returning true without it left
                // the main thread bound to a terminated system, so the next system's bind() was refused
                // ("already runs another job system's main-thread jobs"; close() waits in 100 ms rounds).
                exited = workersExited();
                if (!exited) {
                    return false;
                }
            } else {
                long slice = owner ? Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(1))
                        : ownerGone ? Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(10)) : remaining;
                exited = workersLeft.await(slice, TimeUnit.NANOSECONDS);
            }
            if (exited) {
                mainThread.cancelQueued();     // what is left: each reported (once) by completeCancelled
                if (owner) {
                    mainThread.unbind();
                }
                return true;
            }
        }
    }

    /**
     * The ShutdownKeeper's wait: for termination only. Main-thread jobs are cancelled here only when no main
     * thread will run them (none bound, or it ended); otherwise they are the main thread's to run or cancel.
     */
    boolean awaitKeepingJvmUp(Duration timeout) throws InterruptedException {
        scheduler.mainThread.cancelQueuedIfOwnerGone();
        return workersLeft.await(Timeouts.saturatedNanos(timeout), TimeUnit.NANOSECONDS);
    }
}
