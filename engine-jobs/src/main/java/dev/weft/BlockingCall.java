package dev.weft;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * One {@link Jobs#blocking} call in flight: run on a platform thread, awaited by a parked fiber.
 *
 * <p>Hand-off: the platform thread writes {@link #result} or {@link #failure} (plain fields) and then
 * decrements {@link #done}; the decrement is a volatile read-modify-write and the waiter returns from
 * {@code await} only after a volatile read that sees it, so the plain writes happen-before the waiter's
 * reads. A waiter cancelled first leaves through {@link JobCancelledException} and never reads them; a
 * call already running then runs to its end and its result is dropped with this object, and one not
 * started yet is skipped: the waiter sets {@link #abandoned} (volatile) before it leaves, and the running
 * thread reads it before the call. Either order is fine; the flag only saves work done for nobody.
 */
final class BlockingCall<T> implements Runnable {
    private final Callable<T> call;
    private final Counter done;
    private T result;            // written once by the running thread before done's decrement
    private Throwable failure;   // likewise
    private volatile boolean abandoned;   // the waiter left (cancelled): a call not started yet is skipped
    // The pool that queued this call because all its threads were busy (BlockingPool's rejection handler),
    // or null. Plain: written inside executor.execute() on the waiter's own thread, read by it afterwards.
    private BlockingPool queuedIn;
    private volatile boolean started;     // a thread took the call: its store, read by a queued call's waiter after 2 s

    /** {@code helpFor}: a waiting thread's seat (WaitingHelp) keeps helping while it waits here; or null. */
    BlockingCall(Callable<T> call, Scheduler helpFor) {
        this.call = call;
        this.done = new Counter("Jobs.blocking(" + call + ")");
        this.done.add(1);
        this.done.helpScheduler = helpFor;
    }

    @Override
    public void run() {
        started = true;
        try {
            if (!abandoned) {
                result = call.call();
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            done.decrement();
        }
    }

    /** The pool queued this call behind busy threads: {@link #await} watches whether it starts. */
    void queuedIn(BlockingPool pool) {
        queuedIn = pool;
    }

    /** Parks the calling fiber until the call ended; returns its result or rethrows what it threw, as thrown. */
    T await() throws Exception {
        try {
            BlockingPool pool = queuedIn;
            if (pool != null
                    && !done.await(Duration.ofNanos(BlockingPool.STARVED_WARNING_NANOS)) && !started) {
                pool.starvedCall("Jobs.blocking(" + call + ") of job '" + Jobs.currentJobName() + "'");
            }
            done.await();
        } catch (JobCancelledException e) {
            abandoned = true;
            throw e;
        }
        Throwable t = failure;
        if (t == null) {
            return result;
        }
        if (t instanceof Exception e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("Jobs.blocking: the call threw a non-Exception Throwable", t);
    }
}
