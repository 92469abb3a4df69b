package dev.weft;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.BiConsumer;

/**
 * Weft's job system: a fixed set of worker threads, each with a work-stealing deque, running jobs on
 * pooled fibers (virtual threads scheduled by Weft itself). A job that waits on a {@link Counter} or
 * {@link JobHandle} parks its fiber, and the worker goes on with other jobs.
 *
 * <pre>{@code
 * try (JobSystem jobs = JobSystem.create()) {
 *     Counter frame = new Counter("frame");
 *     jobs.parallelFor(Priority.FRAME, 0, entities.length, 256,
 *             (start, end, worker) -> simulate(entities, start, end), frame);
 *     jobs.run(Priority.FRAME, "cull", () -> cull(camera), frame);
 *     frame.await();                                   // the main thread blocks; a job would park
 *     jobs.runMainThreadJobs(2_000_000);               // GL uploads queued by jobs, 2 ms at most
 * }
 * }</pre>
 *
 * <p>It is an {@link Executor}, so JDK code runs on it as it is: {@code CompletableFuture.supplyAsync(()
 * -> decode(file), jobs)} runs the stage as a Weft job, on a fiber, where it may wait on counters and
 * handles (parking, not blocking a worker). {@link #asExecutorService()} gives code that wants an
 * {@link ExecutorService} a view with the JDK's lifecycle.
 *
 * <p>Threading: every method may be called from any thread, except {@link #runMainThreadJobs} and
 * {@link #bindMainThread}, which belong to the thread that owns the window and GL context.
 *
 * <p>The JVM must open {@code java.lang} to Weft: {@code --add-opens java.base/java.lang=ALL-UNNAMED} on
 * the class path, {@code --add-opens java.base/java.lang=dev.weft} on the module path. Without it
 * {@link #create()} and {@link JobSystemBuilder#build()} throw an {@link IllegalStateException} naming the flag.
 */
public final class JobSystem implements Executor, AutoCloseable {
    /** Default stack size of a worker thread; fibers mount on it, so it bounds a job's recursion depth. */
    public static final long DEFAULT_WORKER_STACK_BYTES = 64L << 20;

    private final Scheduler scheduler;

    JobSystem(JobSystemBuilder b) {
        this.scheduler = new Scheduler(b.name, b.deterministicSeed != null ? 1 : b.workers, b.workerStackBytes,
                b.idleStrategy, b.fiberPool, b.guardedFailureHandler(), b.deterministicSeed, b.pinWorkers,
                b.workerCaps(b.deterministicSeed != null ? 1 : b.workers), b.waitersHelp, b.readyGraceNanos);
        scheduler.keepsJvmUpWhileShuttingDown = b.keepsJvmUpWhileShuttingDown;   // before any shutdown call
        if (b.watchdogThreshold != null) {
            new Watchdog(scheduler, b.watchdogThreshold, b.watchdogSink).start();
        }
    }

    /**
     * A job system with one worker per available processor and default policies.
     *
     * @return a new, started job system named "weft"
     * @throws IllegalStateException if the JVM does not open {@code java.lang} to Weft (see the class
     *                               comment)
     */
    public static JobSystem create() {
        return builder().build();
    }

    /**
     * Configures a job system.
     *
     * @return a new builder with the defaults; {@link JobSystemBuilder#build()} starts the system
     */
    public static JobSystemBuilder builder() {
        return new JobSystemBuilder();
    }

    /**
     * The number of worker threads.
     *
     * @return the number of worker threads, fixed at build time (1 in deterministic mode)
     */
    public int workerCount() {
        return scheduler.workers.length;
    }

    /**
     * How many worker indices jobs can see ({@link Jobs#workerIndex()}, {@code parallelFor}'s {@code
     * worker} argument): {@link #workerCount()} plus one for the waiting thread that helps
     * ({@link JobSystemBuilder#waitersHelp}, on by default). Size per-worker buffers by this.
     *
     * <pre>{@code
     * float[][] partialSums = new float[jobs.workerSlots()][];    // one writer per slot, no lock
     * jobs.parallelFor(Priority.FRAME, 0, n, 256, (s, e, worker) -> add(partialSums[worker], s, e), frame);
     * frame.await();                                              // the main thread may run pieces: slot workerCount()
     * }</pre>
     *
     * @return the number of distinct worker indices a job can see: {@link #workerCount()}, plus one when
     *         waiting threads help
     */
    public int workerSlots() {
        return scheduler.workers.length + (scheduler.waitingHelp != null ? 1 : 0);
    }

    /**
     * The name given at build time (it prefixes worker and fiber thread names).
     *
     * @return the name given at build time ("weft" by default)
     */
    public String name() {
        return scheduler.name();
    }

    /**
     * Runs {@code job} at NORMAL priority; nobody waits for it (a failure goes to the uncaught handler).
     *
     * @param job the work to run; not null
     * @throws java.util.concurrent.RejectedExecutionException after {@link #close()} (from outside a job) or
     *                                                         {@link #shutdownNow()}
     */
    public void run(Job job) {
        scheduler.run(Priority.NORMAL, null, job, null, null);
    }

    /**
     * {@link Executor}: runs {@code command} as a fire-and-forget job at NORMAL priority, on a fiber
     * (it may wait on counters and handles); a failure goes to the uncaught-failure handler
     * ({@link JobSystemBuilder#onUncaughtFailure}). The same as {@link #run(Job)}, except that the command
     * belongs to no {@link JobGroup}, not even the submitting job's: an {@code Executor} must run what it
     * accepts, and a {@code CompletableFuture} stage dropped by a group's cancel would never complete (a
     * probe's {@code join} on it hung). To make such work cancellable, submit it with {@link #run(Job)} or
     * through a group, and check {@link Jobs#isCancelled()}.
     *
     * <pre>{@code
     * CompletableFuture<Mesh> mesh = CompletableFuture
     *         .supplyAsync(() -> Obj.parse(bytes), jobs)          // a Weft job
     *         .thenApplyAsync(Mesh::optimize, jobs);              // another, when the first completes
     * }</pre>
     *
     * @throws java.util.concurrent.RejectedExecutionException as {@link #run(Job)}
     */
    @Override
    public void execute(Runnable command) {
        Objects.requireNonNull(command, "command is null: pass the work to run");
        scheduler.run(Priority.NORMAL, null, new ExecuteJob(command), null, scheduler.executorGroup);
    }

    /**
     * A new {@link ExecutorService} view of this job system, for libraries written against the JDK: its
     * tasks are NORMAL-priority jobs (on fibers, so they may wait on counters and handles), and its
     * lifecycle is its own. {@code shutdown()} and {@code close()} on the view stop the view — refuse new
     * tasks, then terminate once its tasks ended — never the job system, so a library may close what it
     * was given. {@code shutdownNow()} returns the view's tasks that never started (they never will) and
     * asks running ones to stop through Weft's cancellation ({@link Jobs#isCancelled()}, cancelled waits)
     * and by interrupting them, as the JDK's pools do (never the next job of their fiber); one that ends
     * by throwing the {@code InterruptedException} or {@link JobCancelledException} completes as cancelled
     * ({@code Future.get} throws {@code CancellationException}). A task submitted while
     * {@code shutdownNow()} runs is run, listed, or refused with {@code RejectedExecutionException}.
     * {@code Future.cancel} cancels the job if it has not started (true);
     * a running one is asked to stop and the call returns false. {@code execute}'s failures go to the
     * uncaught-failure handler; {@code submit}'s come out of {@code Future.get} as
     * {@link java.util.concurrent.ExecutionException}.
     *
     * <pre>{@code
     * try (ExecutorService pool = jobs.asExecutorService()) {     // close(): waits for the view's tasks
     *     List<Future<Texture>> textures = pool.invokeAll(loadTasks);
     * }                                                            // jobs still runs
     * }</pre>
     *
     * @return a new view with a lifecycle of its own, named after this system with "-executor-service"
     */
    public ExecutorService asExecutorService() {
        return new JobSystemExecutorService(scheduler, name() + "-executor-service");
    }

    /**
     * Runs {@code job} at NORMAL priority and decrements {@code counter} when it ends.
     *
     * @param job the work to run; not null
     * @param counter incremented now and decremented when the job ends, also if it throws or is cancelled;
     *                may be null
     */
    public void run(Job job, Counter counter) {
        scheduler.run(Priority.NORMAL, null, job, counter, null);
    }

    /**
     * Runs {@code job}: {@code counter} (may be null) goes up by one now and down by one when the job
     * ends, also if it throws or is cancelled.
     *
     * @param priority the job's priority; FRAME jobs are picked first, BACKGROUND last; not null
     * @param name the job's name in failures, traces and watchdog reports; may be null
     * @param job the work to run; not null
     * @param counter the counter the job holds up; may be null
     * @throws java.util.concurrent.RejectedExecutionException after {@link #close()} (from outside a
     *         job) or {@link #shutdownNow()}
     */
    public void run(Priority priority, String name, Job job, Counter counter) {
        scheduler.run(priority, name, job, counter, null);
    }

    /**
     * Runs a batch of jobs that share {@code counter}: the counter goes up by the batch size once, and
     * at most one sleeping worker is woken for the whole batch.
     *
     * <pre>{@code
     * jobs.runAll(Priority.FRAME, animated, () -> animate(a), () -> animate(b), () -> animate(c));
     * animated.await();
     * }</pre>
     *
     * @param priority the priority of every job of the batch; not null
     * @param counter incremented by {@code jobs.length} at once, decremented as each job ends; may be null
     * @param jobs the jobs to run; none may be null (then none of them is submitted)
     */
    public void runAll(Priority priority, Counter counter, Job... jobs) {
        BatchSubmission.runAll(scheduler, priority, counter, jobs);
    }

    /**
     * Fork/join in one call, as ForkJoinPool's {@code invokeAll}: {@code jobs[1..]} are submitted at
     * {@code priority}, {@code jobs[0]} runs right here on the calling thread (not queued: no node, no
     * counter traffic), then the call waits for the others, running them itself unless another worker
     * took them first. Cheaper than {@code runAll} plus {@code await} for the recursive split of a
     * divide-and-conquer job, where the caller would only wait anyway.
     *
     * <pre>{@code
     * void update(Node n) {
     *     if (n.isLeaf()) { n.integrate(dt); return; }
     *     jobs.runAndWait(Priority.FRAME, () -> update(n.left), () -> update(n.right));
     * }
     * }</pre>
     *
     * <p>The call returns, or throws, only after every job ended. If {@code jobs[0]} throws, that is what
     * the call throws (a failure of another job added as suppressed); otherwise a failure of another job
     * is thrown as {@link JobFailedException}, as {@link Counter#await()} does. The one exception to
     * "after every job ended" is the calling job's own cancellation while it waits: it throws
     * {@link JobCancelledException} at once, as {@code await} does (or, if {@code jobs[0]} threw, that
     * failure with the cancellation suppressed), and the other jobs, which belong to its group, end on their
     * own (a group cancel stops them too). If any of the other jobs was cancelled before it started, or
     * stopped midway for its cancellation (by throwing {@link JobCancelledException}: its group was
     * cancelled, or the job system stopped) while the wait did not park, the call throws
     * {@link JobCancelledException} once they ended: it never returns normally with jobs skipped.
     *
     * @param priority the priority of {@code jobs[1..]}; not null
     * @param jobs the jobs to run: the first on the calling thread, the others on the workers; none may be
     *             null, and an empty array returns at once
     * @throws java.util.concurrent.RejectedExecutionException as {@link #run(Job)}; nothing then ran
     */
    public void runAndWait(Priority priority, Job... jobs) {
        BatchSubmission.runAndWait(scheduler, priority, jobs);
    }

    /**
     * {@link #runAndWait(Priority, Job...)} at NORMAL priority.
     *
     * @param jobs the jobs to run, as in {@link #runAndWait(Priority, Job...)}
     */
    public void runAndWait(Job... jobs) {
        runAndWait(Priority.NORMAL, jobs);
    }

    /**
     * Submits a value-returning job at NORMAL priority.
     *
     * @param <T> the result type
     * @param callable the work whose result the handle gives; not null
     * @return the job's handle, to join for its result or to cancel it
     */
    public <T> JobHandle<T> submit(Callable<T> callable) {
        return scheduler.submit(Priority.NORMAL, null, callable, null, null);
    }

    /**
     * Submits a value-returning job.
     *
     * @param <T> the result type
     * @param priority the job's priority; not null
     * @param name the job's name in failures, traces and watchdog reports; may be null
     * @param callable the work whose result the handle gives; not null
     * @return the job's handle, to join for its result or to cancel it
     */
    public <T> JobHandle<T> submit(Priority priority, String name, Callable<T> callable) {
        return scheduler.submit(priority, name, callable, null, null);
    }

    /**
     * Submits a value-returning job that also decrements {@code counter} when it ends.
     *
     * @param <T> the result type
     * @param priority the job's priority; not null
     * @param name the job's name in failures, traces and watchdog reports; may be null
     * @param callable the work whose result the handle gives; not null
     * @param counter incremented now and decremented when the job ends; may be null
     * @return the job's handle, to join for its result or to cancel it
     */
    public <T> JobHandle<T> submit(Priority priority, String name, Callable<T> callable, Counter counter) {
        return scheduler.submit(priority, name, callable, counter, null);
    }

    /**
     * Jobs to start when these counters reach zero, with nothing parked meanwhile; see {@link Prerequisites}.
     *
     * <pre>{@code
     * jobs.after(physics, animation).run(Priority.FRAME, "skin", () -> skin(), frame);
     * }</pre>
     *
     * @param counters the counters that must all reach zero before the jobs start
     * @return the prerequisites, to submit jobs that wait on them
     */
    public Prerequisites after(Counter... counters) {
        return Prerequisites.ofCounters(scheduler, null, counters);
    }

    /**
     * Jobs to start when these jobs have ended; see {@link Prerequisites}.
     *
     * @param handles the jobs that must all have ended (completed, failed or cancelled) before the jobs start
     * @return the prerequisites, to submit jobs that wait on them
     */
    public Prerequisites after(JobHandle<?>... handles) {
        return Prerequisites.ofHandles(scheduler, null, handles);
    }

    /**
     * A new cancellation scope; see {@link JobGroup}.
     *
     * @param name the group's name, in failures and traces; not null
     * @return a new, not cancelled group whose jobs (and the jobs they submit) it can cancel together
     */
    public JobGroup newGroup(String name) {
        return new JobGroup(scheduler, Objects.requireNonNull(name, "group name"));
    }

    /**
     * Runs {@code body} over {@code [from, to)} split into ranges of at most {@code grain} elements,
     * in parallel on the workers, and waits until all ranges ran (parking if called from a job).
     *
     * @param from the first index, inclusive
     * @param to the end index, exclusive; not less than {@code from}
     * @param grain the largest number of indices one call of {@code body} gets; at least 1
     * @param body called with each range {@code [start, end)} and the index of the worker running it
     * @throws JobFailedException if a range threw
     * @throws JobCancelledException if ranges were cancelled, before they started or midway (the calling
     *     job's group was cancelled, or the job system stopped), so not every range ran
     */
    public void parallelFor(int from, int to, int grain, RangeJob body) {
        Counter done = new Counter("parallelFor");
        scheduler.parallelFor(Priority.NORMAL, from, to, grain, body, done);
        done.await();
        BatchSubmission.throwIfSkipped(done, "parallelFor");
    }

    /**
     * Starts {@code body} over {@code [from, to)} in ranges of at most {@code grain} elements and returns
     * at once; {@code counter} reaches its previous value again when every range has run.
     *
     * @param priority the priority of the ranges' jobs; not null
     * @param from the first index, inclusive
     * @param to the end index, exclusive; not less than {@code from}
     * @param grain the largest number of indices one call of {@code body} gets; at least 1
     * @param body called with each range {@code [start, end)} and the index of the worker running it
     * @param counter held up until every range has run; not null
     */
    public void parallelFor(Priority priority, int from, int to, int grain, RangeJob body, Counter counter) {
        scheduler.parallelFor(priority, from, to, grain, body, Objects.requireNonNull(counter, "counter"));
    }

    /**
     * Queues {@code callable} for the main thread (the one that calls {@link #runMainThreadJobs}) and
     * returns its handle. A fiber that joins it parks until the main thread has run it. Until a thread
     * calls {@link #bindMainThread()} or {@code runMainThreadJobs}, nothing runs it: a join on {@code main}
     * before that waits (and says so on stderr after 2 s); call {@code bindMainThread()} first.
     *
     * @param <T> the result type
     * @param callable the work to run on the main thread; not null
     * @return the job's handle, completed once the main thread has run it (or cancelled at shutdown)
     * @throws java.util.concurrent.RejectedExecutionException after {@code shutdownNow()}; after {@code close()}
     *         or {@code shutdown()} too, unless called from a job or from the main thread itself (an I/O
     *         thread's post is refused then, as an outside {@code submit} is)
     */
    public <T> JobHandle<T> onMainThread(Callable<T> callable) {
        return scheduler.onMainThread(null, callable);
    }

    /**
     * {@link #onMainThread(Callable)} with a name for errors and traces.
     *
     * @param <T> the result type
     * @param name the job's name in failures and traces; may be null
     * @param callable the work to run on the main thread; not null
     * @return the job's handle, completed once the main thread has run it (or cancelled at shutdown)
     * @throws java.util.concurrent.RejectedExecutionException after {@code shutdownNow()}; after {@code close()}
     *         or {@code shutdown()} too, unless called from a job or from the main thread itself (an I/O
     *         thread's post is refused then, as an outside {@code submit} is)
     */
    public <T> JobHandle<T> onMainThread(String name, Callable<T> callable) {
        return scheduler.onMainThread(name, callable);
    }

    /**
     * Main thread only: runs queued main-thread jobs until none is left or {@code budgetNanos} has
     * passed (checked after each job), and returns how many ran. The first call makes the calling
     * thread the main thread. While the main thread waits on a counter or handle, it also runs main-thread
     * jobs, so it cannot deadlock on them: one at a time, in the time it would otherwise sleep, and the wait
     * returns as soon as what it waits for is done. So a frame's wait overruns by at most one main-thread job
     * (the one in hand), and what is still queued waits for this call's budget or the next wait.
     *
     * @param budgetNanos how long to keep starting jobs, in nanoseconds; a job that has started always runs
     *                    to its end, so the call may overrun by the last job's length
     * @return the number of main-thread jobs that ran
     */
    public int runMainThreadJobs(long budgetNanos) {
        return scheduler.mainThread.run(budgetNanos);
    }

    /** Makes the calling thread the main thread before it first runs main-thread jobs. */
    public void bindMainThread() {
        scheduler.mainThread.bind();
    }

    /**
     * Graceful shutdown, then waits for it: refuses new jobs from outside jobs (main-thread jobs are jobs),
     * runs everything already submitted (and whatever those jobs submit, and jobs parked anywhere — in
     * waits, sleeps, locks),
     * then stops the workers and retires every fiber. It waits as long as that takes: a job that never
     * ends keeps it waiting (use {@link #shutdownNow()} and {@link #awaitTermination} for a bound). On the
     * main thread it keeps running main-thread jobs meanwhile; main-thread jobs still queued when the
     * workers stop are cancelled. If no thread ever ran main-thread jobs or called
     * {@link #bindMainThread()}, nobody will: close cancels them as they are queued, so a job waiting on
     * one ends (with {@link JobCancelledException}) instead of keeping close waiting forever. If the calling
     * thread is interrupted while waiting, it returns early with its interrupt flag set (the shutdown goes
     * on). Called from inside one of this system's jobs, main-thread jobs included, it only starts the
     * shutdown (waiting would wait for the calling job itself, or for a job that joins it); call
     * {@code close()} again from the game loop to wait. Called by a shutdown hook while a job is inside
     * {@code System.exit} (which waits for the hooks), it waits for every other job, then returns without
     * that one and says so on stderr.
     */
    @Override
    public void close() {
        WaitingHelp seat = WaitingHelp.current();      // a job a waiting thread runs for us counts too
        // And a main-thread job of ours: a job that posted it may be joining it, so waiting for termination
        // here waited for ever (a job's "quit?" dialog on the main thread whose handler called close()).
        JobHandle<?> mainThreadJob = MainThreadMailbox.runningOnCurrentThread();
        if ((Jobs.inFiber() && Fiber.current().scheduler == scheduler) || (seat != null && seat.scheduler == scheduler)
                || (mainThreadJob != null && mainThreadJob.belongsTo(scheduler))) {
            // Waiting here would wait for this very job: start the shutdown and return instead.
            scheduler.shutdown();
            return;
        }
        scheduler.shutdown();
        try {
            while (!scheduler.awaitTermination(Duration.ofMillis(100))) {
                if (ExitingJobs.onlyTheyAreLeft(scheduler)) {
                    return;             // in a shutdown hook, the rest waits on System.exit: see ExitingJobs
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts a graceful shutdown and returns at once; see {@link #close()}. Workers are daemon threads,
     * but from this call until termination one non-daemon thread keeps the JVM up, as the JDK's pools
     * do: {@code jobs.shutdown()} at the end of {@code main} still runs everything submitted (a save
     * queued before it is written). Main-thread jobs are not waited for once the main thread has ended:
     * they are cancelled, so that a job waiting on one cannot keep the JVM up for ever.
     */
    public void shutdown() {
        scheduler.shutdown();
    }

    /**
     * Stops now: refuses every submission, cancels every queued job, every queued main-thread job and
     * every job still waiting for its prerequisites ({@link #after}) (each completes its counter and its
     * handle reports cancelled), wakes every parked job with
     * {@link JobCancelledException}, interrupts the fiber of every running job (so that one blocked in a
     * JDK call, a {@code BlockingQueue.take()}, a sleep, {@code Object.wait}, gets the
     * {@link InterruptedException} the JDK's {@code shutdownNow} would give it; a job that ends with it
     * completes as cancelled, not failed), and returns exactly the jobs that never ran: every submitted job is
     * in this list or ran. A job a worker had already taken from a queue when this was called still
     * starts, with {@link Jobs#isCancelled()} true and its waits cancelled, but is not interrupted; running
     * jobs that honour neither run on until they end. Main-thread jobs that are running, and jobs a
     * waiting thread runs for it, are not interrupted (the thread is not Weft's). Returns at once;
     * {@link #awaitTermination} waits.
     *
     * @return the jobs that never ran and never will, each with its name, priority and group
     */
    public List<JobInfo> shutdownNow() {
        return scheduler.shutdownNow();
    }

    /**
     * Waits until the workers stopped. On the bound main thread it runs main-thread jobs meanwhile, one at
     * a time and only until the timeout, so it overruns by the job in hand at most ({@code Duration.ZERO}
     * runs none).
     *
     * @param timeout how long to wait at most
     * @return true if the system terminated, false if the timeout passed first
     * @throws InterruptedException if the calling thread was interrupted while waiting
     * @throws IllegalStateException if called from inside one of this system's jobs (it would wait for
     *                               itself)
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        Counter.checkTimeout(timeout);
        return scheduler.awaitTermination(timeout);
    }

    /**
     * True once the system has terminated: every worker thread has exited after retiring its fibers. Not
     * true merely because {@link #shutdown()} or {@link #shutdownNow()} was called; it turns true only when
     * nothing is left to run (see {@link #awaitTermination}).
     *
     * @return true once every worker thread has exited
     */
    public boolean isTerminated() {
        return scheduler.workersExited();
    }

    /**
     * Starts recording job begin/end, fiber park/resume and steals, keeping at most
     * {@code eventsPerWorker} events per worker; see {@link JobTrace}. One recording at a time.
     *
     * @param eventsPerWorker the most events kept per worker: the newest ones; older events are
     *                        overwritten and counted ({@link JobTrace#droppedEvents()}), so a trace left
     *                        running and stopped after a hitch holds the moments before it
     * @return the recording, to stop and write out
     */
    public JobTrace startTrace(int eventsPerWorker) {
        return scheduler.observation.startTrace(eventsPerWorker);
    }

    /**
     * Main thread only: begins a span of the main thread's own work (not a job: e.g. drawing and
     * presenting a frame) in the {@link JobTrace} being recorded, on the "main thread" track, so it lines
     * up with the jobs in Perfetto. End it with {@link #endTraceSpan()}; main-thread jobs run in between
     * nest inside it. When nothing records this is one volatile read.
     *
     * @param label the span's name on the main-thread track; not null
     * @throws IllegalStateException if the calling thread is not this system's main thread (the one bound
     *                               by {@link #bindMainThread()} or the first {@link #runMainThreadJobs})
     */
    public void beginTraceSpan(String label) {
        java.util.Objects.requireNonNull(label, "label");
        checkTraceSpanThread("beginTraceSpan");
        scheduler.observation.mainThreadSpan(label, true);
    }

    /**
     * Main thread only: ends the span {@link #beginTraceSpan} began last. An end with no span open (one
     * begun before the trace started) is dropped when the trace is written.
     *
     * @throws IllegalStateException if the calling thread is not this system's main thread
     */
    public void endTraceSpan() {
        checkTraceSpanThread("endTraceSpan");
        scheduler.observation.mainThreadSpan("", false);
    }

    private void checkTraceSpanThread(String method) {
        if (scheduler.mainThread.owner() != Thread.currentThread()) {
            throw new IllegalStateException(method + " called on " + Thread.currentThread().getName()
                    + ", but trace spans are for the main thread of '" + scheduler.name() + "' (its track is"
                    + " written by that thread alone); call bindMainThread() on the main thread first, and"
                    + " record spans only there");
        }
    }

    /**
     * Cycles of jobs waiting on each other's counters or joining each other's handles (deadlocks), with
     * their stacks: parked jobs, and jobs submitted through {@link #after(Counter...)} that wait for their
     * prerequisites ({@code after(anim).run(..., physics)} and {@code after(physics).run(..., anim)}). A
     * snapshot, of every parked fiber and every job waiting for prerequisites: cheap enough to call when a
     * frame overruns badly. A wait for a target above zero ({@link Counter#await(long)}) is in a cycle only
     * when it can never end: more than its target of the jobs its counter counts can never end themselves.
     *
     * @return the cycles found, each listing its jobs and what they wait on; empty when there is none
     */
    public List<WaitCycle> findWaitCycles() {
        return WaitCycle.find(scheduler.fibers.all(), scheduler.pendingJobs);
    }

    /**
     * A snapshot of per-worker and fiber statistics.
     *
     * @return the figures at the time of the call
     */
    public JobSystemStats stats() {
        return scheduler.stats();
    }

    @Override
    public String toString() {
        return "JobSystem[" + name() + ", " + workerCount() + " workers]";
    }

    Scheduler schedulerForTests() {
        return scheduler;
    }
}
