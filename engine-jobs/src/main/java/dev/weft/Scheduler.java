package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * The machinery behind {@link JobSystem}: submission and the system's run state. The rest lives in
 * rooms of its own, each with its protocol in its class comment and in SYNCHRONIZATION.md:
 * <ul>
 *   <li>{@link WorkPicker}: the queues work waits in and how a worker picks it (scan order, the
 *       starvation bound, stealing);</li>
 *   <li>{@link FiberPool}: the fibers jobs run on, pooled and bounded;</li>
 *   <li>{@link WorkerParking}: idle workers sleeping and waking, and the termination decision;</li>
 *   <li>{@link PriorityCaps}: how many workers may run each capped priority at once;</li>
 *   <li>{@link Observation}: trace and JFR hooks;</li>
 *   <li>{@link JobNode}: a job's start, completion and cancellation, exactly once each.</li>
 * </ul>
 *
 * <h3>Fibers and priorities</h3>
 * Jobs run on {@link Fiber}s: virtual threads whose scheduler is the fiber itself, forwarding here, made
 * through {@link dev.weft.internal.FiberSupport}. A parked fiber that becomes ready is pushed to the
 * ready deque of the worker that woke it (or injected, when woken from outside), at the highest priority
 * among the jobs on its stack (a job run inline keeps the priority of the job it runs inside, if that is
 * higher). Worker-owned state touched after user code (a node's recycling after {@code complete()},
 * which runs failure handlers and future dependents that may park) is taken from the worker the fiber is
 * on then ({@link JobNode#finishRun}); owner-only structures assert their owner thread under tests.
 *
 * <h3>Waiting</h3>
 * See {@link Counter}: register, re-check, park; a fiber first runs inline the unstarted jobs of the
 * same counter from the bottom of its own deques, as ForkJoinPool's join does, but never an unrelated
 * job. {@link JobHandle#join()} does the same for its own job (ForkJoinPool's tryUnpush: if it is still
 * NEW at the bottom of this worker's deque, pop it and run it nested), so fork/join written with
 * handles parks only when the child was stolen.
 *
 * <h3>Nothing retained</h3>
 * A finished job is reachable only through its handle, if the caller kept one: deque slots are cleared
 * on pop and steal ({@link dev.weft.internal.WorkStealingDeque}), JCTools queues null their slots on
 * poll, a handle drops its callable when it starts or is cancelled, a fiber's {@code currentJob}/{@code firstJob} are
 * cleared, and a wait node forgets its job when its wait ends.
 *
 * <h3>Shutdown</h3>
 * {@code runState}: RUNNING → CLOSING (refuses submissions from outside jobs, and main-thread posts from
 * threads other than the main thread; jobs, main-thread jobs included, may still submit) or
 * STOPPING (refuses all; queued jobs and queued main-thread jobs are cancelled and returned by
 * {@link #shutdownNow}; a job a worker had already taken starts with its cancellation requested;
 * parked waits are woken with cancellation) → TERMINATED, which {@link WorkerParking} decides when
 * nothing could make new work any more (SYNCHRONIZATION.md §5). External submitters register in
 * {@code externalSubmitters} before reading {@code runState} (main-thread posts and shutdownNow's
 * interrupts too), so a submission either is refused or is seen by that check.
 */
final class Scheduler {
    static final int RUNNING = 0;
    static final int CLOSING = 1;
    static final int STOPPING = 2;
    static final int TERMINATED = 3;

    private static final VarHandle RUN_STATE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            RUN_STATE = l.findVarHandle(Scheduler.class, "runState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    final Worker[] workers;
    final WorkPicker picker;               // queues and work picking
    final PriorityCaps caps;               // per-priority worker shares (JobSystemBuilder.maxWorkers)
    final CheckpointSignal checkpoints;    // what Jobs.checkpoint reads (WorkerParking owns the writes)
    final WaitingHelp waitingHelp;         // outside waiters run jobs (Builder.waitersHelp); null: off
    private final AtomicLong jobsRunByWaiters = new AtomicLong();
    final FiberPool fibers;                // the fibers jobs run on
    final Observation observation;         // trace and JFR hooks
    final BiConsumer<String, Throwable> uncaughtFailureHandler;
    final MainThreadMailbox mainThread;
    final TerminationWait termination;   // the latch the workers count down as they exit, and its waits
    private final ConcurrentLinkedQueue<JobInfo> cancelledReport = new ConcurrentLinkedQueue<>();
    final PendingJobs pendingJobs = new PendingJobs(this);   // waiting for prerequisites, in no queue
    private final WorkerParking parking;   // sleeping, waking, terminating workers
    final AtomicInteger externalSubmitters;  // parking.externalSubmitters: submit counts here
    private final AtomicLong cancelledOutsideWorkers = new AtomicLong();
    boolean keepsJvmUpWhileShuttingDown = true;   // JobSystemBuilder.withoutShutdownKeeper (tests); set before any shutdown
    private final boolean pinWorkers;   // JobSystemBuilder.pinWorkersToCores; published to workers by Thread.start
    private volatile int runState;      // RUNNING → CLOSING/STOPPING → TERMINATED
    // The group of Executor.execute's jobs: never cancelled and never handed out, so they do not inherit
    // the submitting job's group (JobSystem.execute).
    final JobGroup executorGroup = new JobGroup(this, "Executor.execute");
    final BlockingPool blockingPool;    // Jobs.blocking's platform threads; closed at termination

    Scheduler(String name, int workerCount, long workerStackBytes, IdleStrategy idleStrategy,
              FiberPoolPolicy fiberPolicy, BiConsumer<String, Throwable> uncaughtFailureHandler,
              Long deterministicSeed, boolean pinWorkers, int[] workerCaps, boolean waitersHelp,
              long readyGraceNanos) {
        dev.weft.internal.FiberSupport.check();
        JfrEvents.init();
        HeapExhaustion.prepare();
        this.name = name;
        this.uncaughtFailureHandler = uncaughtFailureHandler;   // guarded by the builder
        this.mainThread = new MainThreadMailbox(this);
        this.workers = new Worker[workerCount];
        for (int i = 0; i < workerCount; i++) {
            workers[i] = new Worker(this, i, name + "-worker-" + i, workerStackBytes);
            if (deterministicSeed != null) {
                workers[i].seededChoices = new java.util.SplittableRandom(deterministicSeed);
            }
        }
        this.parking = new WorkerParking(this, workers, idleStrategy);
        this.externalSubmitters = parking.externalSubmitters;
        this.observation = new Observation(this, workerCount);
        this.caps = new PriorityCaps(workerCaps);
        this.picker = new WorkPicker(workers, parking, observation, caps, readyGraceNanos);
        this.checkpoints = parking.checkpoints;
        // Deterministic mode: one worker and a seeded picker choose every job; an outside helper would not.
        this.waitingHelp = waitersHelp && deterministicSeed == null
                ? new WaitingHelp(this, externalSubmitters, workerCount) : null;
        this.fibers = new FiberPool(this, fiberPolicy);
        this.termination = new TerminationWait(this, workerCount);
        this.pinWorkers = pinWorkers;
        this.blockingPool = new BlockingPool(name);
        for (Worker w : workers) {
            w.thread.start();
        }
    }

    String name() {
        return name;
    }

    boolean isStopping() {
        return runState >= STOPPING;
    }

    boolean isTerminated() {
        return runState == TERMINATED;
    }

    int runState() {
        return runState;
    }

    /** Every worker has exited (after retiring its idle fibers): what JobSystem.isTerminated reports. */
    boolean workersExited() {
        return termination.workersExited();
    }

    // ------------------------------------------------------------------ submission

    void run(Priority priority, String jobName, Job job, Counter counter, JobGroup group) {
        if (job == null) {
            throw new NullPointerException("job is null: pass the work to run, e.g. jobs.run(() -> work())");
        }
        if (priority == null) {
            throw new NullPointerException("priority is null: use Priority.NORMAL for ordinary jobs");
        }
        Worker w = Worker.current(this);
        PooledJob j = PooledJob.take(w);
        j.job = job;
        j.name = jobName;
        j.priority = priority.ordinal();
        j.counter = counter;
        j.group = group;
        submit(j, w);
    }

    <T> JobHandle<T> submit(Priority priority, String jobName, Callable<T> callable, Counter counter,
                            JobGroup group) {
        if (callable == null) {
            throw new NullPointerException("callable is null: pass the work to run, e.g. jobs.submit(() -> value)");
        }
        if (priority == null) {
            throw new NullPointerException("priority is null: use Priority.NORMAL for ordinary jobs");
        }
        JobHandle<T> h = new JobHandle<>(this, jobName, priority, callable, counter, group);
        submit(h, Worker.current(this));
        return h;
    }

    <T> JobHandle<T> onMainThread(String jobName, Callable<T> callable) {
        if (callable == null) {
            throw new NullPointerException("callable is null: pass the main-thread work to run");
        }
        return mainThread.post(jobName, callable);
    }

    void parallelFor(Priority priority, int from, int to, int grain, RangeJob body, Counter counter) {
        RangeNode.checkArguments(priority, from, to, grain, body);
        if (to == from) {
            return;
        }
        Worker w = Worker.current(this);
        RangeNode r = newRange(w, body, from, to, grain, counter, priority.ordinal(), null);
        submit(r, w);
    }

    /** A parallelFor's root range for {@link Prerequisites}: not pooled (it may wait long), not yet submitted. */
    RangeNode pendingRange(Priority priority, int from, int to, int grain, RangeJob body, Counter counter) {
        RangeNode.checkArguments(priority, from, to, grain, body);
        return newRange(null, body, from, to, grain, counter, priority.ordinal(), null);
    }

    /**
     * A worker splitting a range pushes the upper half onto its own deque; a waiting thread that helps
     * ({@code w} null, WaitingHelp) has none and injects it, where the workers take it.
     */
    void pushRange(Worker w, RangeJob body, int start, int end, int grain, Counter counter, int priority,
                   JobGroup group) {
        RangeNode r = newRange(w, body, start, end, grain, counter, priority, group);
        countNewJob(w, counter);
        if (w == null) {
            // Not queued, the unit goes back, and the Error fails the range that split, whose counter
            // records it, rather than leaving the counter up for ever.
            offerOrUncount(r, counter, 1);
            signalWork(priority);
        } else if (w.jobs[priority].push(r)) {
            signalWork(priority);
        }
    }

    /** Counts a new job of {@code counter} (if any): a decrement {@code w} holds back, taken back (§13), or add(1). */
    private static void countNewJob(Worker w, Counter counter) {
        if (counter != null && (w == null || !w.countFromHeld(counter))) {
            counter.add(1);
        }
    }

    private RangeNode newRange(Worker w, RangeJob body, int start, int end, int grain, Counter counter,
                               int priority, JobGroup group) {
        RangeNode r = w != null ? (RangeNode) w.takeFree(w.freeRanges, w.returnedRanges) : null;
        if (r == null) {
            r = new RangeNode();
            r.home = w;
        }
        r.scheduler = this;
        r.body = body;
        r.start = start;
        r.end = end;
        r.grain = grain;
        r.counter = counter;
        r.priority = priority;
        r.group = group;
        return r;
    }

    /**
     * Inside the {@code externalSubmitters} window, on a thread that is no worker, for the run state
     * {@code rs} it read once (it only moves forward): may it add work now? Always while running; never once
     * stopping. While closing, a job a waiting thread runs for us (WaitingHelp) or a main-thread job of ours
     * may, as a job on a worker may, and so may the caller if {@code alsoWhileClosing} (the main thread
     * posting to its own mailbox). A caller that read CLOSING calls {@link #cancelQueuedIfTerminated}.
     */
    boolean outsideMayAdd(int rs, boolean alsoWhileClosing) {
        return rs == RUNNING || (rs < STOPPING && (alsoWhileClosing || WaitingHelp.current() != null
                || MainThreadMailbox.runningJobOf(this)));
    }

    /**
     * After offers accepted while CLOSING, in the window (a main-thread job's: nothing held the system up):
     * our offer CASes, then this volatile read; markTerminated writes, fences, drains (SYNCHRONIZATION.md §5).
     */
    void cancelQueuedIfTerminated() {
        if (runState == TERMINATED) {
            picker.cancelAllQueued(this);
        }
    }

    /** The group of the job a waiting thread is running for us (WaitingHelp), or null. */
    static JobGroup inheritedGroupOutside() {
        WaitingHelp h = WaitingHelp.current();
        JobNode current = h != null ? h.runningJob : null;
        return current != null ? current.group : null;
    }

    JobGroup inheritedGroup(Worker w) {
        Fiber f = w != null ? w.mounted : null;
        JobNode current = f != null ? f.currentJob : null;
        return current != null ? current.group : null;
    }

    /** The common path of every submission; {@code w} is the current worker or null. */
    private void submit(JobNode j, Worker w) {
        if (j.counter != null) {
            noteHelpScheduler(j.counter);
        }
        if (w != null) {
            if (runState >= STOPPING) {
                throw rejected("submit");
            }
            if (j.group == null) {
                j.group = inheritedGroup(w);
            }
            countNewJob(w, j.counter);
            if (j.group != null && j.group.isCancelled()) {
                j.cancelBeforeStart(this);
                return;
            }
            pushOwn(w, j);
            return;
        }
        externalSubmitters.incrementAndGet();      // before reading runState: see "Shutdown"
        try {
            int rs = runState;
            if (!outsideMayAdd(rs, false)) {
                throw rejected("submit");
            }
            if (j.group == null && waitingHelp != null) {
                j.group = inheritedGroupOutside();
            }
            if (j.counter != null) {
                j.counter.add(1);
            }
            injectCountedUnlessCancelled(j, 1);
            if (rs != RUNNING) {
                cancelQueuedIfTerminated();
            }
        } finally {
            externalSubmitters.decrementAndGet();
        }
    }

    /**
     * Inside the externalSubmitters window: a job of a cancelled group completes cancelled, any other is
     * injected. The caller has just counted {@code counted} units on the job's counter (its own and, for
     * a batch, those of the jobs after it, which will not be queued either): if the queue cannot take it
     * (an OutOfMemoryError linking a new chunk: the offer changed nothing, JCTools restores its producer
     * index), those units are taken back before the Error goes to the submitter. Before, the unit stayed on the counter with the job in no queue: the submitter got the
     * Error, and every waiter on that counter waited for ever.
     */
    void injectCountedUnlessCancelled(JobNode j, int counted) {
        if (j.group != null && j.group.isCancelled()) {
            j.cancelBeforeStart(this);
            return;
        }
        offerOrUncount(j, j.counter, counted);
        parking.signalInjectedWork(j.priority);   // wakes the latest sleeper
    }

    /**
     * Offers {@code j} to the injection queue. If the queue cannot take it (an OutOfMemoryError linking a
     * new chunk: the offer changed nothing), the {@code counted} units the caller added on {@code c} for it
     * (and for jobs after it that will not be queued either) are taken back before the Error goes on. The
     * caller signals after this returns, outside the guard: a signal that throws must not un-count a job
     * that is queued.
     */
    private void offerOrUncount(JobNode j, Counter c, int counted) {
        try {
            picker.injectedJobs[j.priority].offer(j);
        } catch (Throwable noRoom) {
            uncount(c, counted, noRoom);
            throw noRoom;
        }
    }

    /**
     * Takes back {@code n} units a submission counted on {@code c} for jobs it could not queue ({@code cause}
     * is why: it goes on to the submitter). A decrement, so a waiter that registered meanwhile is woken if
     * that reaches its target; nothing else was done on their behalf.
     */
    static void uncount(Counter c, int n, Throwable cause) {
        if (c == null || n == 0) {
            return;
        }
        try {
            c.decrement(n);
        } catch (Throwable afterTheCas) {
            // The decrement's CAS comes before anything that can throw (waking waiters, releasing whenZero
            // jobs, with the heap still full): the units are back. The submitter gets the first Error; this
            // one is not attached to it, which may be the JVM's shared, preallocated OutOfMemoryError.
        }
    }

    /** Worker {@code w}'s own thread: onto its deque; signals only on the empty-to-non-empty push. */
    void pushOwn(Worker w, JobNode j) {
        if (w.jobs[j.priority].push(j)) {
            signalLocalWork(j.priority);
        }
    }

    /** Workers registered as asleep now: the low half of {@code sleepers} (tests). */
    int workersAsleepForTests() {
        return (int) parking.sleepers;
    }

    /** Any other thread, inside the externalSubmitters window: into the injection queue, then signal. */
    void inject(JobNode j) {
        picker.injectedJobs[j.priority].offer(j);
        parking.signalInjectedWork(j.priority);   // wakes the latest sleeper
    }

    /**
     * The system an outside waiter on {@code c} looks to (WaitingHelp, when helping is on; the 2 s "nobody
     * runs main-thread jobs" line either way); written only when it changes.
     */
    void noteHelpScheduler(Counter c) {
        if (c.helpScheduler != this) {
            c.helpScheduler = this;
        }
    }

    RejectedExecutionException rejected(String what) {
        String state = switch (runState) {
            case CLOSING -> "closing (close() was called): only jobs already running may still submit";
            case STOPPING -> "stopping (shutdownNow() was called)";
            case TERMINATED -> "terminated";
            default -> "running";
        };
        return new RejectedExecutionException(what + " refused: job system '" + name + "' is " + state
                + ". Submit work before closing the job system.");
    }

    /** A parked fiber became runnable (the JDK called its executor). */
    void fiberReady(Fiber f) {
        picker.enqueueReady(Worker.current(this), f, f.readyPriority);
    }

    /** A waiting outside thread ran one of our jobs (WaitingHelp). */
    void countHelped() {
        jobsRunByWaiters.incrementAndGet();
    }

    long jobsRunByWaiters() {
        return jobsRunByWaiters.get();
    }

    /** Counts a cancelled job; after shutdownNow, or if asked ({@code list}), also lists it for shutdownNow's report. */
    void reportCancelled(JobNode job, boolean list) {
        Worker w = Worker.current(this);
        if (w != null) {
            w.count(Worker.JOBS_CANCELLED);
        } else {
            cancelledOutsideWorkers.incrementAndGet();
        }
        if (list || runState >= STOPPING) {
            cancelledReport.add(JobInfo.of(job));
        }
    }

    // ------------------------------------------------------------------ idling and waking workers
    // WorkerParking owns these; the delegates keep the call sites' names.

    void idle(Worker w) {
        parking.idle(w);
    }

    /** Called after publishing work of {@code priority} at an empty→non-empty transition. */
    void signalWork(int priority) {
        parking.signalWork(priority);
    }

    /**
     * A worker pushed onto its own empty deque. Alone, there is nobody to wake, and the only checkpoints
     * that could look are this thread's own, which see the push in program order: no fence needed.
     */
    void signalLocalWork(int priority) {
        if (workers.length > 1) {
            parking.signalWork(priority);
        } else {
            parking.checkpoints.noteQueued(priority);
        }
    }

    /**
     * A canceller, after its volatile write: a job that runs on a plain thread, not a fiber, re-reads its
     * cancellation in its wait. That is a job run as help by a waiting thread (WaitingHelp.wakeHolder) or a
     * main-thread job (the mailbox's owner). Each unpark is spurious when that thread is not waiting, which
     * every park loop tolerates; and one that comes before the waiter parks leaves it the permit, so its
     * park returns at once and it re-reads the flag: no wake-up can be lost.
     */
    void wakeJobsWaitingOnThreads() {
        WaitingHelp seat = waitingHelp;
        if (seat != null) {
            seat.wakeHolder();
        }
        mainThread.wakeOwnerForCancel();
    }

    /** On {@code w}'s carrier: a fiber taken for a job, before it can run. */
    void fiberStarted(Worker w) {
        parking.fiberStarted(w.index);
    }

    /** On {@code w}'s carrier: the fiber mounted there is about to park itself in the idle pool (or end). */
    void fiberIdle(Worker w) {
        parking.fiberIdle(w.index);
    }

    /**
     * Tests only: run by the terminating worker after its decision, before TERMINATED is written (null:
     * nothing). Read once per system, at termination.
     */
    volatile Runnable beforeTerminationForTests;

    /**
     * Tests only: run by a thread that is no worker releasing a pending job while CLOSING, after it read
     * the run state and before its offer (PendingJobs.release; null: nothing). Read only while CLOSING.
     */
    volatile Runnable beforeLateInjectForTests;

    /** The termination decision (WorkerParking) ends the system: nothing could make new work any more. */
    void markTerminated() {
        Runnable hook = beforeTerminationForTests;
        if (hook != null) {
            hook.run();
        }
        RUN_STATE.setVolatile(this, TERMINATED);
        // A pending job released from outside while CLOSING (PendingJobs.release) may have been offered
        // after the decider's last scan: cancelled here, or by its releaser, which reads TERMINATED after
        // its offer. The fence orders the write above before the queues' index reads (acquire loads).
        VarHandle.fullFence();
        picker.cancelAllQueued(this);
        ShutdownKeeper.terminated(this);
        blockingPool.close();
    }

    // ------------------------------------------------------------------ shutdown

    void shutdown() {
        for (;;) {
            int rs = runState;
            if (rs != RUNNING) {
                break;
            }
            if (RUN_STATE.compareAndSet(this, RUNNING, CLOSING)) {
                ShutdownKeeper.shuttingDown(this);  // the JVM stays up until what was submitted has run (if kept)
                break;
            }
        }
        parking.wakeAll();                 // every worker re-parks; the last one checks for quiescence
    }

    List<JobInfo> shutdownNow() {
        for (;;) {
            int rs = runState;
            if (rs >= STOPPING) {
                break;
            }
            if (RUN_STATE.compareAndSet(this, rs, STOPPING)) {
                if (rs == RUNNING) {
                    ShutdownKeeper.shuttingDown(this);   // the first shutdown call (shutdown() may have been it)
                }
                break;
            }
        }
        picker.cancelAllQueued(this);      // exact: every job that never ran is reported, nothing that ran
        pendingJobs.cancelAll();           // and those no queue holds yet, waiting for prerequisites
        mainThread.cancelQueued();         // main-thread jobs nobody ran yet: reported like the rest
        // Registered as an outside submitter while it wakes waits and interrupts jobs: an interrupt whose
        // job ended meanwhile readies an idle fiber (the JDK submits a parked virtual thread it interrupts),
        // and one landing after termination queued it where no worker looks: a fiber alive for ever (SoakTest,
        // SHUTDOWN_NOW_FROM_OTHER_THREAD). Termination waits for the count to fall to 0, and a fiber readied
        // before that is visible work to the decider's second scan (SYNCHRONIZATION.md §5).
        externalSubmitters.incrementAndGet();
        try {
            fibers.cancelAllWaits();       // runState (volatile) was written first: Dekker with beginWait
        } finally {
            externalSubmitters.decrementAndGet();
        }
        parking.wakeAll();
        return new ArrayList<>(cancelledReport);
    }

    /** Waits for termination, running main-thread jobs meanwhile if called on the main thread. */
    boolean awaitTermination(Duration timeout) throws InterruptedException {
        return termination.await(timeout);
    }

    void workerExited(Worker w) {
        termination.workerExited();
    }

    /** On the worker's own thread, first thing: pin it to a CPU of its inherited mask (Worker.pinToCpu) if asked to. */
    void maybePin(Worker w) {
        if (pinWorkers) {
            w.pinToCpu(name);
        }
    }

    /**
     * For hang reports in tests: who is parked, what is queued, the termination counts. Racy reads of
     * live state, so a snapshot that may be inconsistent; never used to decide anything.
     */
    String stateForHangReport() {
        StringBuilder sb = new StringBuilder("scheduler '").append(name).append("': runState=").append(runState)
                .append(' ').append(parking).append(" visibleWork=").append(picker.hasVisibleWork())
                .append(" mainThreadQueueEmpty=").append(mainThread.isEmpty());
        for (Worker w : workers) {
            sb.append("\n  worker ").append(w.index).append(": parkState=").append(w.parkState)
                    .append(" mounted=").append(w.mounted != null).append(" thread=").append(w.thread.getState());
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ statistics

    JobSystemStats stats() {
        return JobSystemStats.of(workers, mainThread.jobsRun(), cancelledOutsideWorkers.get(),
                fibers.created(), fibers.alive(), fibers.parked(), jobsRunByWaiters.get());
    }
}
