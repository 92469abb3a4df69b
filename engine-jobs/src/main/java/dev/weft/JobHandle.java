package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * The result token of a value-returning job ({@link JobSystem#submit}) or a main-thread job
 * ({@link JobSystem#onMainThread}).
 *
 * <pre>{@code
 * jobs.bindMainThread();                       // on the thread that owns the GL context, once
 * JobHandle<Mesh> mesh = jobs.submit(Priority.BACKGROUND, "load rock", () -> loadMesh("rock.obj"));
 * JobHandle<Integer> vbo = jobs.onMainThread(() -> upload(mesh.join()));  // decode on a worker, upload on GL
 * int id = vbo.join();                          // on the main thread: runs the upload while it waits
 * }</pre>
 *
 * <p>{@link #join()} parks the calling fiber, blocks a plain thread, and on the thread that runs
 * main-thread jobs keeps running them while it waits. A job ends in exactly one of three ways: with a
 * value, with a failure ({@link JobFailedException}, naming the job, wraps it), or cancelled
 * ({@link JobCancelledException}): cancelled before it started, or it ended by throwing
 * {@code JobCancelledException} after {@link #cancel()} asked it to stop.
 *
 * <p>If the job was given a {@link Counter}, the handle has ended (and its
 * {@link #toCompletableFuture() future} is complete) before that counter is decremented: once the
 * counter is at zero, every handle it counts is done.
 *
 * <p>Fork/join: a job that submits a child and joins it later runs the child inline, on its own fiber,
 * if no other worker has taken it yet (it is still at the bottom of this worker's deque), as
 * ForkJoinPool's {@code join} does. A handle keeps only the job's result: its callable is dropped when
 * the job ends, and nothing in Weft references a finished handle, so a dropped handle and its result are
 * garbage.
 *
 * <pre>{@code
 * int fib(JobSystem jobs, int n) {
 *     if (n < 2) return n;
 *     JobHandle<Integer> a = jobs.submit(() -> fib(jobs, n - 1));
 *     int b = fib(jobs, n - 2);
 *     return a.join() + b;          // runs a here unless another worker stole it
 * }
 * }</pre>
 *
 * @param <T> the result type
 */
public final class JobHandle<T> extends JobNode {
    private static final VarHandle FUTURE;
    private static final VarHandle DONE_SIGNAL;
    /** {@code doneSignal} once the job has ended. */
    private static final Object ENDED = new Object();

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            FUTURE = l.findVarHandle(JobHandle.class, "future", CompletableFuture.class);
            DONE_SIGNAL = l.findVarHandle(JobHandle.class, "doneSignal", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Callable<T> callable;          // dropped when the job starts, or by whoever completes it cancelled
    private final Class<?> callableType;   // for the default name once the callable is gone
    private final Scheduler scheduler;
    // Whether the job has ended, and what a waiter waits on (SYNCHRONIZATION.md §19, "A handle's end"):
    // null while it has not ended and nobody had to wait; a Counter holding 1 once a waiter needed one (its
    // CAS from null); ENDED once it ended (complete's getAndSet, which hands over any counter installed
    // before it, to be decremented). Only forward: null -> Counter -> ENDED, or null -> ENDED. A fork/join
    // that runs its child inline, or a handle never joined, never makes the counter.
    private volatile Object doneSignal;

    @Override
    boolean isAwaitedBy(Counter c) {
        return counter == c || (c != null && c == doneSignal);
    }
    private T result;                      // written before complete's getAndSet of doneSignal (which publishes it)
    private Throwable failure;             // likewise
    private boolean cancelled;             // likewise
    private volatile CompletableFuture<T> future;

    JobHandle(Scheduler scheduler, String name, Priority priority, Callable<T> callable, Counter counter,
              JobGroup group) {
        this.scheduler = scheduler;
        this.callable = callable;
        this.callableType = callable.getClass();
        this.name = name;
        this.priority = priority.ordinal();
        this.counter = counter;
        this.group = group;
    }

    /** Running as a main-thread job: asked to stop (its cancel, its group's, or shutdownNow)? Jobs.isCancelled. */
    boolean stopRequested() {
        return cancellationRequested(this, scheduler);
    }

    /** True if this is a job of {@code s} (a main-thread job asks whose mailbox ran it). */
    boolean belongsTo(Scheduler s) {
        return scheduler == s;
    }

    /** The job's name. */
    public String name() {
        return super.name();
    }

    /**
     * True once the job has ended: value, failure or cancellation.
     *
     * @return true once the job has ended, however it ended
     */
    public boolean isDone() {
        return doneSignal == ENDED;
    }

    /**
     * True if the job was cancelled before it started, or ended by honouring a cancellation.
     *
     * @return true if the job ended cancelled
     */
    public boolean isCancelled() {
        return isDone() && cancelled;
    }

    /**
     * Waits for the job and returns its value.
     *
     * <p>Called from a job, and the job is still unstarted at the bottom of this worker's deque, the join
     * runs it here, on the caller's stack (ForkJoinPool's {@code tryUnpush}), instead of parking. A chain
     * of jobs that each submit and join the next therefore nests as deep as the chain: keep such chains to
     * a few thousand jobs, or loop instead. A fiber too deep for the JDK to park fails its wait with a
     * {@link StackOverflowError} that names the job and says so. Do not join inside a static initializer:
     * a fiber cannot unmount there, so the join blocks its worker until the job ends (see {@link Counter}).
     *
     * <p>Main-thread jobs run only on a thread that called {@link JobSystem#bindMainThread()} or
     * {@link JobSystem#runMainThreadJobs}: a plain thread's join that waits 2 s while main-thread jobs are
     * queued and no thread ever did says so on stderr (once per job system), then keeps waiting.
     *
     * @return the job's value
     * @throws JobFailedException if the job threw (the cause is what it threw)
     * @throws JobCancelledException if the job was cancelled
     * @throws IllegalStateException if a job joins itself (it would wait forever)
     */
    public T join() {
        if (!isDone()) {
            Fiber f = Fiber.current();
            checkNotSelf(f);
            helpIfStillLocal(f);
            Counter done = counterToWaitOn();
            if (done != null) {
                done.await();       // a plain thread's: says so after 2 s if nobody runs main-thread jobs
            }
        }
        return report();
    }

    /**
     * Waits at most {@code timeout} for the job. Inside a job, a job nobody has started that is still this
     * worker's own runs right here first, as in {@link #join()}; that can take longer than the timeout. On
     * the bound main thread it runs queued main-thread jobs meanwhile, none once the timeout has passed.
     *
     * @param timeout how long to wait at most
     * @return the job's value
     * @throws TimeoutException if it has not ended by then (the job keeps going)
     * @throws JobFailedException if the job threw (the cause is what it threw)
     * @throws JobCancelledException if the job was cancelled
     */
    public T join(Duration timeout) throws TimeoutException {
        Counter.checkTimeout(timeout);
        if (!isDone()) {
            Fiber f = Fiber.current();
            checkNotSelf(f);
            helpIfStillLocal(f);
        }
        Counter done = counterToWaitOn();
        if (done != null && !done.await(timeout)) {
            String hint = scheduler.mainThread.nobodyRunsThemHint();
            throw new TimeoutException("job '" + name() + "' did not finish within " + timeout
                    + (hint.isEmpty() ? "" : "; " + hint));
        }
        return report();
    }

    /**
     * The value if the job ended with one, else {@code otherwise}; never waits.
     *
     * @param otherwise what to return if the job has not ended, or ended without a value
     * @return the job's value, or {@code otherwise}
     */
    public T getNow(T otherwise) {
        if (!isDone() || failure != null || cancelled) {
            return otherwise;
        }
        return result;
    }

    /**
     * Cancels the job. If it has not started it never will: it ends cancelled, its counter is still
     * decremented and its waiters are woken, and this returns true. If it is running, this asks it to
     * stop — {@link Jobs#isCancelled()} turns true inside it and a wait it is parked in throws
     * {@link JobCancelledException} — and returns false. A job that already ended is unaffected.
     *
     * @return true if the job had not started and now never will; false if it was running or had ended
     */
    public boolean cancel() {
        if (cancelIfNotStarted()) {         // we won the CAS and completed it, once
            return true;
        }
        if (state() == RUNNING) {
            requestCancel();                 // volatile write, then read the runner's wait: see Fiber.beginWait
            Fiber f = runner();
            if (f != null) {
                f.cancelWaitOf(this);
            } else {
                scheduler.wakeJobsWaitingOnThreads();   // run by a waiting or the main thread: its wait re-reads
            }
        }
        return false;
    }

    /** Cancels the job only if it has not started (true: it never will); a running job is left alone. */
    boolean cancelIfNotStarted() {
        return cancelIfNotStarted(false);
    }

    /** {@link #cancelIfNotStarted()}; {@code listForShutdownNow}: see {@link JobNode#completeCancelled(Scheduler, boolean)}. */
    boolean cancelIfNotStarted(boolean listForShutdownNow) {
        if (tryCancel()) {
            completeCancelled(scheduler, listForShutdownNow);
            return true;
        }
        return false;
    }

    /**
     * A {@link CompletableFuture} that completes when this job ends, for code written for the JDK. Made
     * on first call; completing it does not affect the job, and cancelling it does not cancel the job.
     *
     * @return the future, the same one on every call
     */
    @SuppressWarnings("unchecked")
    public CompletableFuture<T> toCompletableFuture() {
        CompletableFuture<T> f = future;
        if (f != null) {
            return f;
        }
        CompletableFuture<T> mine = new CompletableFuture<>();
        // One future per handle: of two racing first calls, the CAS loser returns the winner's (a plain
        // write here once let both publish, and the overwritten one never completed). The CAS is a full
        // fence, ordered before the re-check of isDone: see complete().
        CompletableFuture<T> witness = (CompletableFuture<T>) FUTURE.compareAndExchange(this, null, mine);
        if (witness != null) {
            return witness;
        }
        if (isDone()) {
            completeFuture(mine);            // complete() may do it too: a CompletableFuture completes once
        }
        return mine;
    }

    @Override
    public String toString() {
        String s = !isDone() ? (state() == RUNNING ? "running" : "queued")
                : cancelled ? "cancelled" : failure != null ? "failed: " + failure : "done";
        return "JobHandle[" + name() + ", " + s + "]";
    }

    @Override
    void execute() throws Throwable {
        Callable<T> c = callable;
        callable = null;                     // the running fiber owns it now; a finished handle keeps no closure
        result = c.call();
    }

    @Override
    void complete(Scheduler s, Throwable failure, boolean cancelled, Fiber on) {
        if (cancelled) {
            callable = null;   // never to run: the one completer owns it now (a kept handle keeps no closure)
        }
        this.cancelled = cancelled;
        this.failure = failure;
        // The handle ends before its counter does: whoever sees the counter at zero may read every
        // handle it counts (isDone, getNow, the future) and must find it ended.
        // getAndSet: publishes result/failure/cancelled to whoever reads ENDED, and takes the counter a
        // waiter installed (if any) in the same atomic step, so no waiter can slip in between (§19).
        Object waited = DONE_SIGNAL.getAndSet(this, ENDED);
        try {
            if (waited instanceof Counter done) {
                done.decrement();            // wakes the waiters; ENDED was stored first
            }
            CompletableFuture<T> f = future; // volatile read after the getAndSet: see toCompletableFuture
            if (f != null) {
                completeFuture(f);
            }
        } finally {
            // on.worker(): where we are after the future's user code. Also when completing the future threw
            // (its dependents' allocation with the heap exhausted): the job's counter completes regardless.
            completeCounter(s, failure, !cancelled, on);
        }
    }

    @Override
    String defaultName() {
        return callableType.getName();
    }

    /** The counter that reaches zero when this job ends (a prerequisite's completion, {@link Prerequisites}). */
    Counter doneCounter() {
        Counter c = counterToWaitOn();
        return c != null ? c : new Counter(name);   // ended: a counter at zero says so
    }

    /**
     * The counter to wait on for this job's end, made and installed on first need; null if the job has
     * ended. Born holding 1 (a plain write, published by the CAS): complete()'s getAndSet, which comes
     * after our CAS or finds ENDED there first, takes it and decrements it. Losing the CAS to another
     * waiter returns theirs; losing it to the end returns null.
     */
    Counter counterToWaitOn() {
        Object s = doneSignal;
        if (s == null) {
            Counter mine = new Counter("join of '" + name() + "'", 1);   // its name is what reports show
            mine.helpScheduler = scheduler;         // a join from outside may help (WaitingHelp)
            s = DONE_SIGNAL.compareAndExchange(this, null, mine);
            if (s == null) {
                return mine;
            }
        }
        return s == ENDED ? null : (Counter) s;
    }

    /** The counter joiners wait on, if one had to wait and the job has not ended; else null (WaitCycle). */
    Counter joinersCounter() {
        return doneSignal instanceof Counter c ? c : null;
    }

    /** What the job threw, once it ended (published with ENDED, see {@code doneSignal}); or null. */
    Throwable failureCause() {
        return failure;
    }

    /**
     * On fiber {@code f} (null: not on one): runs this job right here if it has not started and is still
     * this worker's to pop.
     */
    private void helpIfStillLocal(Fiber f) {
        if (state() == NEW) {
            if (f != null && f.scheduler == scheduler) {
                f.runInlineIfAtBottom(this);
            }
        }
    }

    /** {@code f}: the current fiber, or null. */
    private void checkNotSelf(Fiber f) {
        if (f != null) {
            // This handle is on f's stack (itself, or a job it runs inside) exactly when its body is
            // running on f: runBody sets the runner for that span. One load instead of a walk of the
            // stack's enclosing chain, which inline joins make as deep as the recursion (Fib).
            if (runner() == f) {
                throw selfJoin();
            }
            return;                          // a fiber never runs main-thread jobs (and reads no ThreadLocal)
        }
        WaitingHelp seat = WaitingHelp.current();   // a job a waiting thread runs (WaitingHelp)
        if (seat != null) {
            checkNotOnStack(seat.runningJob);
        }
        if (MainThreadMailbox.isRunningOnCurrentThread(this)) {
            throw new IllegalStateException("main-thread job '" + name() + "' joins its own handle and "
                    + "would wait forever; return the value instead of joining it");
        }
    }

    private void checkNotOnStack(JobNode innermost) {
        for (JobNode j = innermost; j != null; j = j.enclosing) {   // itself, or a job it runs inside
            if (j == this) {
                throw selfJoin();
            }
        }
    }

    private IllegalStateException selfJoin() {
        return new IllegalStateException("job '" + name() + "' joins its own handle and would wait "
                + "forever; return the value instead of joining it");
    }

    private T report() {
        if (cancelled) {
            throw new JobCancelledException("job '" + name() + "' was cancelled");
        }
        if (failure != null) {
            throw new JobFailedException(name(), failure);
        }
        return result;
    }

    private void completeFuture(CompletableFuture<T> f) {
        if (cancelled) {
            f.completeExceptionally(new JobCancelledException("job '" + name() + "' was cancelled"));
        } else if (failure != null) {
            f.completeExceptionally(new JobFailedException(name(), failure));
        } else {
            f.complete(result);
        }
    }
}
