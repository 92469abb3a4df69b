package dev.weft;

/**
 * What Weft's own code does when an Error (in practice an OutOfMemoryError: the heap exhausted) comes out
 * of its bookkeeping around a job rather than out of the job's body: describing the failure, the
 * uncaught-failure handler, completing a handle's future, re-pooling a fiber, taking the next job. Every
 * method here runs only after such an Error was caught, never on a job's success path, and none of them
 * throws: the principle (SYNCHRONIZATION.md §7) is that nothing is silently lost, a job that cannot start
 * fails instead, its counter still reaches zero, and no worker thread or fiber dies of it.
 */
final class HeapExhaustion {
    private HeapExhaustion() {}

    /** Attempts at completing a job whose completion threw, before it is given up (and reported). */
    static final int MAX_ATTEMPTS = 1000;

    /**
     * Loads and initializes, while memory is plentiful (a job system's constructor), the classes the
     * paths below need: a class first touched with the heap exhausted fails to initialize, and then fails
     * for good with NoClassDefFoundError.
     */
    static void prepare() {
        JobFailedException unused = JobFailedException.HEAP_EXHAUSTED;
    }

    /**
     * Completing {@code job} (its handle, its counter's failure, the uncaught-failure handler) threw
     * {@code t}. The counter was completed anyway (decrements sit in finally blocks); a RuntimeException
     * is a misuse the handler hears about, as before (a counter decremented below zero); an Error is
     * reported as best it can be and dropped.
     */
    static void completionThrew(Scheduler s, JobNode job, Throwable t) {
        try {
            s.uncaughtFailureHandler.accept(job.name(), t);   // guarded: throws nothing itself
        } catch (Throwable noRoom) {
            // job.name() itself ran out of memory: nothing more can be done
        }
    }

    /**
     * Worker {@code w} could not start {@code job} on a fiber ({@code t}, thrown making one, most often):
     * the job fails with {@code t}, as one a dry bounded pool cannot start fails with
     * FiberPoolExhaustedException, so its counter completes and its waiter hears of it. Its capped slot
     * goes back first, as in FiberPool.onPoolDry (unless a fiber is mounted: its stack holds them).
     */
    static void startFailed(Scheduler s, Worker w, JobNode job, Throwable t) {
        try {
            if (w.mounted == null) {
                s.caps.releaseAll(w, w.capHeld);
            }
        } catch (Throwable ignored) {
            // nothing allocates there; should it throw, the job must complete regardless
        }
        for (int attempt = 0;; attempt++) {
            try {
                int state = job.state();
                if (state == JobNode.NEW ? job.admit(s) : state == JobNode.RUNNING) {   // false: cancelled, completed
                    job.finishRun(s, t);
                }
                break;
            } catch (Throwable again) {
                if (attempt == MAX_ATTEMPTS) {   // as in fiberLoopThrew
                    report(s, "a job could not start and could not be failed either", again);
                    break;
                }
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Fiber {@code f}'s loop caught {@code t} with {@code job} in hand (null: none), and goes on (kept out
     * of the loop: its size decides its inlining). Wherever it came from — even from the first steps of
     * completing the job, where a deoptimization that must reallocate objects can throw it — the job's
     * state says what is left to do: RUNNING, it ran but did not complete (it completes now, failed with
     * {@code t}); NEW, it never started (it fails as a job that cannot start does, which reports one with
     * no counter to the uncaught-failure handler under its name), unless it is a pooled node already
     * recycled (its work cleared, {@link JobNode#isRecycled}: completed before, nothing to do); DONE or
     * CANCELLED, it completed. (A {@code jobs.run(task)} with no counter used to be taken for a recycled
     * node and dropped without a word.)
     */
    static void fiberLoopThrew(Fiber f, JobNode job, Throwable t) {
        for (int attempt = 0; job != null; attempt++) {
            try {
                int state = job.state();
                if (state == JobNode.RUNNING) {
                    job.finishRun(f.scheduler, t, f);
                } else if (state == JobNode.NEW && (job.counter != null || !job.isRecycled())) {
                    startFailed(f.scheduler, f.worker(), job, t);
                }
                break;
            } catch (Throwable again) {
                // Completing it threw before the job was marked done: try again, as long as memory is
                // short (each attempt lets the collector run); the state tells what is still to do.
                if (attempt == MAX_ATTEMPTS) {
                    report(f.scheduler, "a job could not be completed in " + MAX_ATTEMPTS + " attempts", again);
                    break;
                }
                Thread.onSpinWait();
            }
        }
        try {
            report(f.scheduler, "fiber " + f.thread.getName() + " went on after an error in Weft's own code", t);
        } catch (Throwable noRoom) {
            // the message itself could not be built
        }
    }

    /**
     * {@code job}, counted and in nobody's queue, could not be queued ({@code t}: the injection queue's
     * offer ran out of memory linking a chunk) by code that has no submitter to tell: a job a waiting
     * thread's helper stole but may not run and hands back (WaitingHelp.handBackIfNotAwaited), or a job
     * its prerequisites released inside a decrement (Prerequisites.Release). It fails as a job that cannot
     * start, so its counter completes and its waiter hears of it, instead of leaving the counter up for
     * ever. Never throws.
     */
    static void notQueued(Scheduler s, JobNode job, Throwable t) {
        for (int attempt = 0;; attempt++) {
            try {
                int state = job.state();
                if (state == JobNode.NEW ? job.admit(s) : state == JobNode.RUNNING) {   // false: cancelled, completed
                    job.finishRun(s, t);
                }
                return;
            } catch (Throwable again) {
                if (attempt == MAX_ATTEMPTS) {
                    report(s, "a job could not be queued and could not be failed either", again);
                    return;
                }
                Thread.onSpinWait();
            }
        }
    }

    /** Worker {@code w}'s carrier loop caught {@code t} and goes on. */
    static void workerWentOn(Worker w, Throwable t) {
        try {
            report(w.scheduler, "worker " + w.thread.getName() + " went on after an error in Weft's own code", t);
        } catch (Throwable noRoom) {
            // the message itself could not be built
        }
    }

    /** Best effort: tells the uncaught-failure handler about an Error in Weft's own code; never throws. */
    static void report(Scheduler s, String what, Throwable t) {
        try {
            s.uncaughtFailureHandler.accept("(weft: " + what + ")", t);
        } catch (Throwable noRoom) {
            // the heap is exhausted: the report is dropped, the worker goes on
        }
    }
}
