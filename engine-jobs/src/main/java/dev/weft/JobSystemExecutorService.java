package dev.weft;

import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link JobSystem#asExecutorService()}: an {@link java.util.concurrent.ExecutorService} whose tasks are
 * NORMAL-priority Weft jobs, with a lifecycle of its own. Its {@code shutdown} stops this view, never the
 * job system: a library given the view may shut it down in its own {@code close()} while the game's
 * frames go on.
 *
 * <p>Bookkeeping per task (an entry in {@link #live}, the {@link #pending} counter, one
 * {@code CompletableFuture} callback) is the price of the JDK's lifecycle; the job system's own
 * {@code run}/{@code submit} pay none of it. No lock: {@code live} is a concurrent set, {@code pending} a
 * Counter this class adds to and subtracts from itself (so a failed task records no failure on it and
 * {@link #awaitTermination} never throws one).
 */
final class JobSystemExecutorService extends AbstractExecutorService {
    private final Scheduler scheduler;
    private final JobGroup group;                                // shutdownNow asks running tasks to stop
    // Tasks not ended yet, with their submission order, what shutdownNow returns for them, and their
    // interrupt handshake (ViewTask).
    private final ConcurrentHashMap<JobHandle<?>, ViewTask> live = new ConcurrentHashMap<>();
    private final AtomicLong submitted = new AtomicLong();
    private final Counter pending = new Counter("executor-service tasks");
    private volatile boolean shutdown;
    private volatile boolean stopping;                           // shutdownNow was called (after shutdown)

    JobSystemExecutorService(Scheduler scheduler, String name) {
        this.scheduler = scheduler;
        this.group = new JobGroup(scheduler, name);
    }

    @Override
    public void execute(Runnable command) {
        Objects.requireNonNull(command, "command is null: pass the task to run");
        start(command, () -> {
            command.run();
            return null;
        }, true);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        Objects.requireNonNull(task, "task is null: pass the task to run");
        return start(task, task, false);
    }

    @Override
    public Future<?> submit(Runnable task) {
        Objects.requireNonNull(task, "task is null: pass the task to run");
        return start(task, () -> {
            task.run();
            return null;
        }, false);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        Objects.requireNonNull(task, "task is null: pass the task to run");
        return start(task, () -> {
            task.run();
            return result;
        }, false);
    }

    /**
     * Submits one task. {@code pending} goes up before the shutdown check is read, so a shutdown that
     * reads {@code pending == 0} afterwards cannot miss a task that got past the check (both volatile).
     */
    private <T> HandleFuture<T> start(Object original, Callable<T> body, boolean reportFailure) {
        pending.add(1);
        if (shutdown) {
            pending.decrement();
            throw new RejectedExecutionException(scheduler.runState() == Scheduler.RUNNING
                    ? "task refused: this ExecutorService view of job system '" + scheduler.name() + "' was shut"
                            + " down (the job system itself still runs; submit to it, or to a new asExecutorService()"
                            + " view)"
                    // Not "still runs": a new view of a closed system refuses too (the message sent users there).
                    : "task refused: this ExecutorService view was shut down, and so was its job system '"
                            + scheduler.name() + "'. Submit work before closing the job system.");
        }
        ViewTask task = new ViewTask(submitted.getAndIncrement(), original);
        JobHandle<T> h;
        try {
            h = scheduler.submit(Priority.NORMAL, task.taskName(), () -> task.call(body), null, group);
        } catch (RuntimeException refused) {          // the job system itself is closing or stopped
            pending.decrement();
            throw refused;
        }
        live.put(h, task);
        h.toCompletableFuture().whenComplete((value, failure) -> ended(h, failure, reportFailure));
        // A shutdownNow that came after the check above may have read `live` before the put: its group
        // cancel then drops the task unrun, and nothing listed it (a probe lost 98 execute()d tasks in 2,000
        // races). Dekker with shutdownNow: the put, a full fence, then read `stopping`; shutdownNow writes
        // `stopping`, a full fence, then reads `live` (a map read may be an acquire load only). So either
        // it sees the task, or this sees `stopping` and refuses the task, unless its body already started.
        VarHandle.fullFence();
        if (stopping && task.claimNeverRuns()) {
            h.cancelIfNotStarted();                   // not taken by a worker yet: it never will be
            throw new RejectedExecutionException("task refused: this ExecutorService view of job system '"
                    + scheduler.name() + "' was stopped by shutdownNow() while the task was submitted (it did"
                    + " not run and is not in shutdownNow's list)");
        }
        return new HandleFuture<>(h, task);
    }

    /** Runs once per task, on the thread that completed it (or here, if it ended before we got there). */
    private void ended(JobHandle<?> h, Throwable failure, boolean reportFailure) {
        ViewTask task = live.remove(h);
        if (task != null && task.original instanceof OwnTask<?> own) {
            own.cancel(false);                        // it never ran (a no-op if it did): see OwnTask
        }
        if (reportFailure && failure != null && !(failure instanceof JobCancelledException)) {
            Throwable cause = failure instanceof JobFailedException f && f.getCause() != null ? f.getCause() : failure;
            scheduler.uncaughtFailureHandler.accept(h.name(), cause);   // nobody holds a Future for execute()
        }
        pending.decrement();
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return new OwnTask<>(callable);
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return new OwnTask<>(runnable, value);
    }

    /**
     * A task AbstractExecutorService's invokeAll/invokeAny made and execute()d: only their caller holds its
     * Future, and waits on it, so one whose job ended without running it (cancelled by shutdownNow, the
     * view's or the job system's) is cancelled when the job ends; invokeAll waited for ever on it before.
     */
    private static final class OwnTask<T> extends FutureTask<T> {
        OwnTask(Callable<T> callable) {
            super(callable);
        }

        OwnTask(Runnable runnable, T value) {
            super(runnable, value);
        }
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    /**
     * Shuts down, cancels every task of this view that has not started (returned, never run; a Callable
     * as a Runnable that calls it), and asks the running ones to stop: the Weft way ({@link Jobs#isCancelled()}
     * turns true in them and in the jobs they submitted, and a wait they are parked in throws
     * {@link JobCancelledException}) and the JDK's (their thread is interrupted, through the handshake of
     * {@link ViewTask}, so the interrupt never reaches another job of the same fiber).
     */
    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        stopping = true;
        VarHandle.fullFence();                        // then read `live`: Dekker with start()'s re-check
        List<Map.Entry<JobHandle<?>, ViewTask>> tasks = new ArrayList<>(live.entrySet());
        tasks.sort(Comparator.comparingLong(e -> e.getValue().order));     // in submission order, as the JDK's pools
        // First every unstarted task, then the running ones: asked to stop first, a running task would
        // free its worker, which could start a queued task before this loop reached it.
        List<Runnable> neverRan = new ArrayList<>();
        for (Map.Entry<JobHandle<?>, ViewTask> e : tasks) {
            // The task's own claim, not the job's cancel, decides: a job taken by a worker whose body has
            // not started yet is listed too (it then ends cancelled without running).
            if (e.getValue().claimNeverRuns()) {
                e.getKey().cancelIfNotStarted();
                neverRan.add(e.getValue().asRunnable());
            }
        }
        group.cancel();                       // running tasks, and the jobs they submitted, see isCancelled()
        for (Map.Entry<JobHandle<?>, ViewTask> e : tasks) {
            e.getValue().interrupt();         // a task blocked in a JDK call (take, sleep) ends, as with the JDK
        }
        return neverRan;
    }

    @Override
    public boolean isShutdown() {
        return shutdown || scheduler.runState() != Scheduler.RUNNING;   // the job system's shutdown refuses ours too
    }

    @Override
    public boolean isTerminated() {
        return isShutdown() && pending.isDone();
    }

    /**
     * Interruptible, as the JDK's contract says (a Weft wait is not): {@code ExecutorService.close()} relies
     * on it, calling {@code shutdownNow()} when its wait is interrupted. The wait is cut into slices of at
     * most {@link #INTERRUPT_POLL_MILLIS}, with the interrupt status read between them (a Weft wait keeps
     * the status and sets it again when it returns, so an interrupt during a slice is seen after it). An
     * uncut wait kept an interrupted {@code close()} waiting until the tasks ended by themselves.
     */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (boolean first = true;; first = false) {
            if (isTerminated()) {
                return true;
            }
            // Before the first wait, and before every slice once shut down: a task that calls close() as it
            // starts may not be in `live` yet (its submitter puts it there after the submit), and is a
            // slice later.
            if (first || isShutdown()) {
                ViewTask self = taskOfThisViewOnThisThread();
                if (self != null) {
                    throw new WaitsForItself(self, scheduler.name());
                }
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return false;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("awaitTermination interrupted");
            }
            if (isShutdown()) {
                // timed: sleeps, never runs a job here; a slice, so that an interrupt is seen within one
                pending.await(Duration.ofNanos(Math.min(remaining, INTERRUPT_POLL_MILLIS * 1_000_000L)));
            } else {
                TimeUnit.NANOSECONDS.sleep(Math.min(remaining, 1_000_000L));   // not shut down: poll
            }
        }
    }

    /**
     * Shuts the view down and waits until its tasks ended, as the JDK's {@code close()}; called from inside
     * one of its own tasks (or a job such a task runs inline), it only shuts down and returns, as
     * {@link JobSystem#close()} does inside a job: waiting there waited for that very task, for ever and
     * without a word (a library's last callback closing the executor it runs on).
     */
    @Override
    public void close() {
        // The JDK's default close(), with one more way out.
        shutdown();
        boolean interrupted = false;
        for (;;) {
            try {
                if (awaitTermination(1, TimeUnit.DAYS)) {
                    break;
                }
            } catch (InterruptedException e) {
                if (!interrupted) {
                    shutdownNow();
                    interrupted = true;
                }
            } catch (WaitsForItself inOwnTask) {
                break;                           // shut down: all a task of the view can do for its close
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** awaitTermination (or close) called inside a task of this view: it would wait for itself. */
    private static final class WaitsForItself extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        WaitsForItself(ViewTask self, String systemName) {
            super("awaitTermination called from inside task " + self.taskName() + " of this ExecutorService view"
                    + " of job system '" + systemName + "' (or a job it runs inline): the view cannot terminate"
                    + " while that task runs, so it would wait for itself. Call shutdown() from the task, and"
                    + " wait for termination on another thread.");
        }
    }

    /**
     * The task of this view whose body is on the current thread's stack, or null. A task runs on a fiber
     * (a virtual thread of its own while the task runs, across parks), so its registered runner is the
     * current thread exactly when the caller is that task or a job it runs inline. A scan of the live
     * tasks: paid by close() and awaitTermination() only, never by the job path.
     */
    private ViewTask taskOfThisViewOnThisThread() {
        Thread me = Thread.currentThread();
        for (ViewTask task : live.values()) {
            if (task.isRunningOn(me)) {
                return task;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "ExecutorService[" + scheduler.name() + (isShutdown() ? ", shut down" : "") + ", " + pending.pending()
                + " tasks pending]";
    }

    /**
     * How often a thread waiting in {@code Future.get} outside the job system, or in
     * {@link #awaitTermination}, looks at its interrupt status.
     */
    static final long INTERRUPT_POLL_MILLIS = 20;

    /** The JDK's {@link Future} over a job handle: cancel cancels the job, failures come as ExecutionException. */
    private record HandleFuture<T>(JobHandle<T> handle, ViewTask task) implements Future<T> {
        /**
         * True if the task had not started: it never will. A running task is asked to stop (and, with
         * {@code mayInterruptIfRunning}, interrupted), and this returns false: it is not done until it ends.
         */
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            if (handle.cancel()) {
                return true;
            }
            if (mayInterruptIfRunning && !handle.isDone()) {
                task.interrupt();
            }
            return false;
        }

        @Override
        public boolean isCancelled() {
            return handle.isCancelled();
        }

        @Override
        public boolean isDone() {
            return handle.isDone();
        }

        /**
         * Interruptible, as {@link Future#get()} promises (a Weft join is not): a thread outside the job
         * system waits in slices of 20 ms (INTERRUPT_POLL_MILLIS) and checks its interrupt status
         * between them; a job (a fiber) checks it before it joins.
         */
        @Override
        public T get() throws InterruptedException, ExecutionException {
            if (Thread.interrupted()) {
                throw new InterruptedException("Future.get() called with the interrupt status set");
            }
            try {
                if (!Jobs.inFiber()) {
                    while (!handle.isDone()) {
                        awaitSlice(Duration.ofMillis(INTERRUPT_POLL_MILLIS));
                    }
                }
                return handle.join();
            } catch (JobFailedException f) {
                throw new ExecutionException(f.getCause());
            } catch (JobCancelledException c) {
                throw (CancellationException) new CancellationException(c.getMessage()).initCause(c);
            }
        }

        @Override
        public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            if (Thread.interrupted()) {
                throw new InterruptedException("Future.get() called with the interrupt status set");
            }
            try {
                if (!Jobs.inFiber()) {
                    long deadline = System.nanoTime() + unit.toNanos(timeout);
                    long left;
                    while (!handle.isDone() && (left = deadline - System.nanoTime()) > 0) {
                        awaitSlice(Duration.ofNanos(Math.min(left, INTERRUPT_POLL_MILLIS * 1_000_000L)));
                    }
                    if (!handle.isDone()) {
                        throw new TimeoutException("task " + handle.name() + " did not finish within " + timeout
                                + " " + unit.toString().toLowerCase(java.util.Locale.ROOT));
                    }
                    return handle.join(Duration.ZERO);   // done
                }
                return handle.join(Duration.ofNanos(unit.toNanos(timeout)));
            } catch (JobFailedException f) {
                throw new ExecutionException(f.getCause());
            } catch (JobCancelledException c) {
                throw (CancellationException) new CancellationException(c.getMessage()).initCause(c);
            }
        }

        /** Waits at most {@code slice} for the job, then throws if this thread was interrupted meanwhile. */
        private void awaitSlice(Duration slice) throws InterruptedException {
            try {
                handle.join(slice);
            } catch (TimeoutException notYet) {
                // not done: look at the interrupt status, then wait again
            } catch (JobFailedException | JobCancelledException ended) {
                return;                                  // done: the caller's join reports it
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("Future.get() interrupted while waiting for its task");
            }
        }
    }
}
