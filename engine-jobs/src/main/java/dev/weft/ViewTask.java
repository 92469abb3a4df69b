package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;

/**
 * One task of an {@link JobSystem#asExecutorService()} view: its submission order, what shutdownNow
 * returns for it, and the interrupt {@code Future.cancel(true)} and the view's shutdownNow send it.
 *
 * <p>A Weft fiber runs many jobs one after another, so an interrupt sent to "the thread running this task"
 * could land on the next job. The handshake is FutureTask's: the canceller moves {@code interruptState}
 * NONE → INTERRUPTING (one CAS, one canceller), interrupts the runner if one is registered, then stores
 * INTERRUPTED; the runner, at the end of the task, unregisters (volatile store), waits out an INTERRUPTING
 * canceller and clears its interrupt status, so nothing reaches the next job. Registration at the start is
 * a volatile store followed by a volatile read of the state (Dekker with the canceller's CAS then read of
 * the runner): a canceller that came before the registration is seen, and the task interrupts itself.
 * Cost: paid by the view's tasks alone (two volatile stores and two volatile reads), not by the job system.
 */
final class ViewTask {
    private static final int NONE = 0;
    private static final int INTERRUPTING = 1;
    private static final int INTERRUPTED = 2;
    private static final int NOT_STARTED = 0;            // startState: NOT_STARTED, then STARTED or NEVER_RUNS
    private static final int STARTED = 1;
    private static final int NEVER_RUNS = 2;
    private static final VarHandle INTERRUPT_STATE;
    private static final VarHandle START_STATE;

    static {
        try {
            INTERRUPT_STATE = MethodHandles.lookup().findVarHandle(ViewTask.class, "interruptState", int.class);
            START_STATE = MethodHandles.lookup().findVarHandle(ViewTask.class, "startState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long order;
    final Object original;                      // the Runnable or Callable the caller submitted
    private volatile Thread runner;
    private volatile int interruptState;
    // Whether the task's body started: set once, by CAS, by the job as it starts (STARTED) or by whoever
    // reports it as never run (NEVER_RUNS: shutdownNow's list, or its submitter's RejectedExecutionException).
    // The job's own state cannot say it: a job the view's cancelled group dropped at its worker never
    // reached tryCancel, so no cancelIfNotStarted succeeds on it and shutdownNow did not list it.
    private volatile int startState;

    ViewTask(long order, Object original) {
        this.order = order;
        this.original = original;
    }

    /** The job's body: runs {@code body} registered as this task's runner. */
    <T> T call(Callable<T> body) throws Exception {
        if (!START_STATE.compareAndSet(this, NOT_STARTED, STARTED)) {
            // Reported as never run (shutdownNow's list, or its submitter's refusal) after a worker took the
            // job: end without running it, as a cancelled job (the request comes before the throw, so the
            // job counts the exception as a cancel honoured, not a failure to report).
            Jobs.runningOnCurrentThread().requestCancel();
            throw new JobCancelledException("task " + original + " was cancelled before it started: it was listed"
                    + " by the view's shutdownNow() or refused to its submitter");
        }
        Thread me = Thread.currentThread();
        runner = me;
        if (interruptState != NONE) {
            me.interrupt();                      // cancel(true) came before we registered
        }
        try {
            return body.call();
        } finally {
            runner = null;
            if (interruptState != NONE) {
                while (interruptState == INTERRUPTING) {
                    Thread.onSpinWait();         // the canceller is between its CAS and its interrupt
                }
                Thread.interrupted();            // meant for this task: not for the fiber's next job
            }
        }
    }

    /**
     * Whether {@code thread} is inside this task's body now, or in a job the body runs inline (a join):
     * then this task ends only after whatever that thread is doing returns. Plain read of a volatile; only
     * a thread asking about itself gets an answer that cannot change under it (it set {@code runner}).
     */
    boolean isRunningOn(Thread thread) {
        return runner == thread;
    }

    /**
     * Marks the task as one that never runs, unless its body already started; true for exactly one caller,
     * which then reports it (in shutdownNow's list, or by refusing it to its submitter). Any thread.
     */
    boolean claimNeverRuns() {
        return START_STATE.compareAndSet(this, NOT_STARTED, NEVER_RUNS);
    }

    /** Interrupts the task if it runs now; at most once. Any thread. */
    void interrupt() {
        if (INTERRUPT_STATE.compareAndSet(this, NONE, INTERRUPTING)) {
            Thread r = runner;
            if (r != null) {
                r.interrupt();
            }
            interruptState = INTERRUPTED;
        }
    }

    /** What the view's shutdownNow lists for a task that never ran: the Runnable given, or one calling the Callable. */
    Runnable asRunnable() {
        if (original instanceof Runnable r) {
            return r;
        }
        Callable<?> c = (Callable<?>) original;
        return new Runnable() {
            @Override
            public void run() {
                try {
                    c.call();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            }

            @Override
            public String toString() {
                return "Runnable[" + c + "]";
            }
        };
    }

    /** The job's name: the class of what the caller submitted, so reports name the caller's task. */
    String taskName() {
        return original.getClass().getName();
    }
}
