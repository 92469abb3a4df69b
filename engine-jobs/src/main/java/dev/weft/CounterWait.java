package dev.weft;

import java.util.concurrent.locks.LockSupport;

/**
 * A {@link Counter}'s slow wait: the waiter's side of its protocol (SYNCHRONIZATION.md §5), apart from
 * the counter's own state so that {@code Counter} holds the value, the waiter stack and the decrementer's
 * side. Called only once a fast check saw the value above the target.
 */
final class CounterWait {
    private CounterWait() {}

    /**
     * The waiting protocol: register, re-check, park.
     * <ol>
     *   <li>raise {@code maxWaitTarget} to our target (CAS-max), then CAS-push our node;</li>
     *   <li>re-read {@code value}: a decrementer that did its CAS before our push is seen here;
     *       one that does it after our push sees our node (all three are volatile, so sequentially
     *       consistent), and fires it;</li>
     *   <li>park until the node leaves WAITING or the value is reached (spurious wake-ups loop).</li>
     * </ol>
     * A fiber first runs inline the jobs of this counter still unstarted at the bottom of its own
     * worker's deque (never an unrelated job), and its wait can be cancelled (so can a main-thread job's,
     * and a helped job's); the main thread keeps
     * running main-thread jobs while it waits, one at a time with this check between them, so it cannot
     * deadlock on them and returns as soon as the value is reached. Any other thread (not a
     * fiber) runs, between those checks, queued FRAME jobs (those this wait depends on first) on its own
     * stack before it sleeps, if the wait has no timeout (WaitingHelp; off with
     * {@code JobSystemBuilder.waitersHelp(false)}): a timed wait only sleeps, so its timeout holds.
     */
    static boolean await(Counter counter, long target, long timeoutNanos) {
        Fiber fiber = Fiber.current();
        if (fiber != null) {
            fiber.helpBeforeWait(counter, target);
            fiber.worker().flushHeld();                  // decrements this worker held back (§13) first
            if (counter.pending() <= target) {
                return true;
            }
            if (timeoutNanos < 0) {
                refuseWaitForOwnStack(counter, target, fiber.currentJob);
            }
        }
        MainThreadMailbox mailbox = fiber == null ? MainThreadMailbox.ownedByCurrentThread() : null;
        Scheduler helped = fiber == null ? counter.helpScheduler : null;
        // null: helping is off, or the wait has a timeout. A helped job cannot be preempted, so a timed
        // wait that ran one would return when the job ends, not when the timeout says: a frame loop's
        // join(5 s) watchdog ran the hung range itself and never fired (demo WatchdogTest hung).
        WaitingHelp help = helped != null && timeoutNanos < 0 ? helped.waitingHelp : null;
        // A job a waiting thread runs as help (WaitingHelp), now waiting itself: cancellable as a fiber's
        // wait is. Its cancellers unpark the seat's holder (WaitingHelp.wakeHolder) after their volatile
        // write, and this loop reads the flag before each park.
        WaitingHelp helpedSeat = fiber == null ? WaitingHelp.current() : null;
        if (helpedSeat != null && timeoutNanos < 0) {
            refuseWaitForOwnStack(counter, target, helpedSeat.runningJob);
        }
        // A main-thread job waiting (an upload that joins its decode): cancellable too, as JobHandle.cancel()
        // promises. Its cancellers unpark the mailbox's owner (Scheduler.wakeJobsWaitingOnThreads); before,
        // the wait went on until its counter was done, and a cancelled level's upload held the game loop.
        JobHandle<?> mainThreadJob = fiber == null && helpedSeat == null ? MainThreadMailbox.runningOnCurrentThread() : null;

        WaitNode node = new WaitNode(Thread.currentThread(), target, counter, counter.epochNow(),
                fiber != null ? fiber.currentJob : null);
        counter.register(node, target);
        if (fiber != null) {
            fiber.beginWait(node);
        }
        long deadline = timeoutNanos >= 0 ? System.nanoTime() + timeoutNanos : 0L;
        // A plain thread's untimed wait on a counter of a system whose main-thread jobs nobody runs (no thread
        // ever bound: frame.await() on main without bindMainThread(), a frame job joining an upload) hung
        // without a word. Such a wait parks in slices and, past the first, says so once
        // (MainThreadMailbox.warnIfNobodyRuns).
        long warnAt = timeoutNanos < 0 && helped != null && mailbox == null
                ? System.nanoTime() + NOBODY_RUNS_WARNING_NANOS : 0L;
        boolean interrupted = false;                     // an interrupt seen meanwhile, set again at the end
        // A blocking-pool thread waiting for a job lets its pool add a thread meanwhile (BlockingPool: the
        // job may need a blocking call of its own, queued behind this one). Ended in the finally below.
        BlockingPool compensated = fiber == null && Thread.currentThread() instanceof BlockingPool.BlockingThread bt
                && bt.pool.waitBegan() ? bt.pool : null;
        try {
            for (;;) {
                int s = node.state();
                if (s == WaitNode.FIRED) {
                    return true;
                }
                if (s == WaitNode.CANCELLED) {
                    throw fiber.cancelledWhileWaiting(counter);
                }
                if (counter.pending() <= target) {
                    node.abandon();                      // leave no stale wake-up behind if we can
                    return true;
                }
                if (fiber != null && fiber.cancellationRequested()) {
                    if (node.abandon()) {
                        throw fiber.cancelledWhileWaiting(counter);
                    }
                    continue;                            // fired or cancelled meanwhile: re-read state
                }
                if (helpedSeat != null && helpedSeat.cancellationRequested()) {
                    if (node.abandon()) {
                        throw helpedSeat.cancelledWhileWaiting(counter);
                    }
                    continue;                            // fired meanwhile: re-read state
                }
                if (mainThreadJob != null && mainThreadJob.stopRequested()) {
                    if (node.abandon()) {
                        throw new JobCancelledException("main-thread job '" + mainThreadJob.name()
                                + "' was cancelled while waiting on " + counter);
                    }
                    continue;                            // fired meanwhile: re-read state
                }
                // A timed wait runs main-thread jobs only before its deadline: it ran every queued one before
                // it looked at the deadline again (await(10 ms) with three 300 ms uploads queued returned after
                // 900 ms; await(ZERO), a poll, ran the whole queue). Now it overruns by the job in hand at most.
                if (mailbox != null && (timeoutNanos < 0 || deadline - System.nanoTime() > 0)
                        && mailbox.runOneWhileWaiting()) {
                    continue;                            // ran one main-thread job: re-check before the next
                }
                if (help != null && help.helpOnce(counter)) {
                    continue;                            // ran a queued job on our own stack: re-check
                }
                // The wait is uninterruptible, and a park returns at once while the interrupt status is
                // set: cleared here, or the wait spun for as long as it lasted (a fiber held its worker).
                interrupted |= Thread.interrupted();
                if (timeoutNanos >= 0) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        if (node.abandon()) {
                            return false;
                        }
                        continue;
                    }
                    park(counter, mailbox, remaining, fiber);
                } else if (warnAt != 0L) {
                    long remaining = warnAt - System.nanoTime();
                    if (remaining <= 0) {
                        warnAt = System.nanoTime() + NOBODY_RUNS_WARNING_NANOS;
                        helped.mainThread.warnIfNobodyRuns("on counter '" + counter.name() + "'");
                        continue;
                    }
                    park(counter, mailbox, remaining, fiber);
                } else {
                    park(counter, mailbox, -1L, fiber);
                }
            }
        } finally {
            if (fiber != null) {
                fiber.endWait();
            }
            if (compensated != null) {
                compensated.waitEnded();
            }
            node.ended();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A job that waits on a counter counting itself, or a job it runs inside (inline help, a join, a waiting
     * thread's help), more times than the target: the counter cannot go below the jobs on this stack, none
     * of which ends before the wait does, so the wait never ends. Refused, as a self-join is; before, it
     * hung silently (the watchdog named it a cycle, if on; a waiting main thread that ran such a FRAME job
     * as help hung with it). A timed wait is left alone: it ends, false at its deadline. Walked only here, on the way to a park, never on a wait the value already
     * satisfies: the slow path's cost, a load per job on the stack (plain: this thread wrote the chain, or
     * read it published with the job).
     */
    private static void refuseWaitForOwnStack(Counter counter, long target, JobNode innermost) {
        long own = 0;
        JobNode counted = null;
        for (JobNode k = innermost; k != null; k = k.enclosing) {
            if (k.counter == counter) {
                own++;
                counted = k;
            }
        }
        if (own > target) {
            String job = innermost.name();
            String whose = own == 1 && counted == innermost
                    ? "counts job '" + job + "' itself: the job cannot end before its wait does"
                    : own == 1 ? "counts job '" + counted.name() + "', which job '" + job + "' runs inside (run"
                    + " inline by its join or wait): '" + counted.name() + "' cannot end before this wait does"
                    : "counts " + own + " jobs on the stack of job '" + job + "' (it, or jobs it runs inside): none"
                    + " of them can end before the wait does";
            throw new IllegalStateException("job '" + job + "' waits on counter '" + counter.name() + "'"
                    + (target > 0 ? " until at most " + target + " remain" : "") + ", which " + whose
                    + ", so it would wait forever. Wait on a counter"
                    + " of the jobs it submits (a new Counter), or return and let the thread that submitted it"
                    + " wait on '" + counter.name() + "'.");
        }
    }

    /** How long a plain thread's untimed wait lasts before it says that no thread runs main-thread jobs. */
    static final long NOBODY_RUNS_WARNING_NANOS = 2_000_000_000L;

    private static void park(Counter counter, MainThreadMailbox mailbox, long nanos, Fiber fiber) {
        if (mailbox != null && !mailbox.sleep()) {
            return;                                      // a main-thread job arrived: do not sleep
        }
        try {
            if (nanos >= 0) {
                LockSupport.parkNanos(counter, nanos);
            } else {
                LockSupport.park(counter);
            }
        } catch (StackOverflowError tooDeep) {
            throw fiber != null ? tooDeepToPark(counter, fiber, tooDeep) : tooDeep;
        } finally {
            if (mailbox != null) {
                mailbox.wake();
            }
        }
    }

    /**
     * The JDK refuses to unmount a virtual thread whose stack would need a humongous stack chunk (more
     * than half a G1 region) and throws a bare {@code StackOverflowError("Humongous stack chunk")}: say
     * which job it was, and why its stack got that deep (the JDK's message is kept in ours, so the root cause
     * a chain of joins reports is this one). The waiter node is abandoned by the caller's {@code finally},
     * as for any other exception out of the park.
     */
    private static StackOverflowError tooDeepToPark(Counter counter, Fiber fiber, StackOverflowError cause) {
        JobNode job = fiber.currentJob;
        return new StackOverflowError("job '" + (job != null ? job.name() : "?")
                + "' could not park its fiber to wait on counter '" + counter.name() + "': the fiber's stack is too"
                + " deep for the JDK to unmount (" + cause.getMessage() + "). A join or a wait runs the jobs it"
                + " waits for inline when it can, on the waiter's own stack, so a chain of jobs that each submit"
                + " and join the next one is as deep as the chain. Cut the chain (a loop that submits the next"
                + " job without joining it, or a counter per level), or keep such chains to a few thousand jobs.");
    }
}
