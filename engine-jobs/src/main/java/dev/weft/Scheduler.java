package dev.weft;

import dev.weft.internal.InjectionQueue;
import dev.weft.internal.WorkStealingDeque;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.jctools.queues.MpmcUnboundedXaddArrayQueue;

/**
 * The machinery behind {@link JobSystem}.
 *
 * <h2>Implementation overview</h2>
 *
 * <h3>Work queues</h3>
 * Each {@link Worker} owns, per priority, a Chase–Lev deque of new jobs and one of ready fibers
 * ({@link WorkStealingDeque}). A job submitted on a worker (from a job) is pushed at the bottom of that
 * worker's deque; the worker pops LIFO (the freshest, cache-warm child first), thieves steal FIFO (the
 * oldest, usually largest, piece). Work from other threads enters through per-priority
 * {@link InjectionQueue}s (JCTools MPSC with a one-consumer-at-a-time turn).
 *
 * <h3>Picking work</h3>
 * {@link #pollNext} scans priorities from FRAME to BACKGROUND; within one priority: own ready fibers, own
 * new jobs, injected ready fibers, injected jobs (a batch moves into the own deque, where others can
 * steal it), then stealing — ready fibers first — from the other workers, starting at a random victim
 * (per-worker xorshift) and visiting each once. Every {@link JobSystem#STARVATION_INTERVAL}th scan starts
 * at NORMAL or BACKGROUND in turn instead: the starvation bound ({@link #firstPriorityToScan}).
 *
 * <h3>Fibers</h3>
 * Jobs run on {@link Fiber}s: virtual threads whose scheduler is the fiber itself, forwarding to this
 * class, made through {@link dev.weft.internal.FiberSupport}. A fiber runs job after job inline, so a job
 * that never waits costs no thread creation and no park. When a job waits, its fiber parks; the worker's
 * carrier loop mounts a ready fiber or takes an idle one from the pool ({@link #idleFibers}, MPMC) to go
 * on with new jobs. A parked fiber that becomes ready is pushed to the ready deque of the worker that
 * woke it (or injected, when woken from outside), at the highest priority among the jobs on its stack
 * (a job run inline keeps the priority of the job it runs inside, if that is higher). Worker-owned
 * state touched after user code (a node's recycling after {@code complete()}, which runs failure
 * handlers and future dependents that may park) is taken from the worker the fiber is on then
 * ({@link #finish}); owner-only structures assert their owner thread under tests.
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
 * on pop and steal ({@link WorkStealingDeque}), JCTools queues null their slots on poll, a handle drops
 * its callable when it starts, a fiber's {@code currentJob}/{@code firstJob} are cleared, and a wait node
 * forgets its job when its wait ends.
 *
 * <h3>Parking and signalling workers, termination</h3>
 * {@link WorkerParking} owns them; {@link #idle}, {@link #signalWork} and {@link #fiberIdle} delegate,
 * and {@code busyFibers}/{@code externalSubmitters} here are its counters. An idle worker spins, yields,
 * then parks ({@link IdleStrategy}): it sets its {@code parkState} to PARKED, XADDs the parking's
 * {@code sleepers} (a full fence), re-scans every queue, and only then parks. A producer that made a
 * queue go from empty to non-empty publishes the element, issues a full fence and reads
 * {@code sleepers}; only if it is non-zero does it CAS one PARKED worker to SIGNALLED and unpark it.
 * Dekker: either the producer sees the sleeper, or the sleeper's re-scan sees the element. Only the
 * worker itself unregisters, once it stopped parking, so a worker counted asleep holds no job. While
 * every worker is busy, {@code sleepers} is zero and submitting costs no syscall and takes no lock.
 *
 * <h3>Shutdown</h3>
 * {@code runState}: RUNNING → CLOSING (refuses submissions from outside jobs; jobs may still submit) or
 * STOPPING (refuses all; queued jobs and queued main-thread jobs are cancelled and returned by
 * {@link #shutdownNow}; a job a worker had already taken starts with its cancellation requested;
 * parked waits are woken with cancellation) → TERMINATED. The last worker to register as asleep terminates the system when no
 * worker left its park since, no queue holds anything, no fiber is out of the pool and no outside
 * submission is in flight: nothing could make new work any more (SYNCHRONIZATION.md §5). External
 * submitters register in {@code externalSubmitters} before reading {@code runState}, so a submission
 * either is refused or is seen by that check.
 */
final class Scheduler {
    static final int RUNNING = 0;
    static final int CLOSING = 1;
    static final int STOPPING = 2;
    static final int TERMINATED = 3;

    private static final VarHandle RUN_STATE;
    private static final int INJECTED_BATCH = 32;
    /** Most jobs one visit to a victim takes: the first steal plus up to this minus one more (1: one per visit, for A/B). */
    static final int STEAL_BATCH = Integer.getInteger("weft.internal.stealBatch", 8);

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
    private final InjectionQueue<JobNode>[] injectedJobs;
    private final InjectionQueue<Object>[] injectedReady;
    final MpmcUnboundedXaddArrayQueue<Fiber> idleFibers = new MpmcUnboundedXaddArrayQueue<>(64);
    private final Set<Fiber> allFibers = ConcurrentHashMap.newKeySet();
    private final FiberPoolPolicy fiberPolicy;
    private final BiConsumer<String, Throwable> uncaughtFailureHandler;
    final MainThreadMailbox mainThread;
    private final CountDownLatch terminated;
    private final ConcurrentLinkedQueue<JobInfo> cancelledReport = new ConcurrentLinkedQueue<>();
    private final AtomicInteger fiberCount = new AtomicInteger();
    private final AtomicInteger parkedFibers = new AtomicInteger();      // fibers inside a Counter wait (wait path only)
    private final WorkerParking parking;   // sleeping, waking, terminating workers
    private final AtomicInteger busyFibers;          // parking.busyFibers: startOnFiber counts here
    private final AtomicInteger externalSubmitters;  // parking.externalSubmitters: submit counts here
    private final AtomicLong cancelledOutsideWorkers = new AtomicLong();
    private final AtomicLong fiberIds = new AtomicLong();
    private final boolean pinWorkers;   // JobSystem.Builder.pinWorkersToCores; published to workers by Thread.start
    private volatile JobTrace trace;    // the recording in progress, or null (read once per job)
    private volatile int runState;      // RUNNING → CLOSING/STOPPING → TERMINATED
    final BlockingPool blockingPool;    // Jobs.blocking's platform threads; closed at termination

    @SuppressWarnings("unchecked")
    Scheduler(String name, int workerCount, long workerStackBytes, IdleStrategy idleStrategy,
              FiberPoolPolicy fiberPolicy, BiConsumer<String, Throwable> uncaughtFailureHandler,
              Long deterministicSeed, boolean pinWorkers) {
        dev.weft.internal.FiberSupport.check();
        JfrEvents.init();
        this.name = name;
        this.fiberPolicy = fiberPolicy;
        this.uncaughtFailureHandler = uncaughtFailureHandler;
        this.mainThread = new MainThreadMailbox(this);
        this.injectedJobs = new InjectionQueue[Priority.COUNT];
        this.injectedReady = new InjectionQueue[Priority.COUNT];
        for (int p = 0; p < Priority.COUNT; p++) {
            injectedJobs[p] = new InjectionQueue<>();
            injectedReady[p] = new InjectionQueue<>();
        }
        this.workers = new Worker[workerCount];
        for (int i = 0; i < workerCount; i++) {
            workers[i] = new Worker(this, i, name + "-worker-" + i, workerStackBytes);
            if (deterministicSeed != null) {
                workers[i].seededChoices = new java.util.SplittableRandom(deterministicSeed);
            }
        }
        this.parking = new WorkerParking(this, workers, idleStrategy);
        this.busyFibers = parking.busyFibers;
        this.externalSubmitters = parking.externalSubmitters;
        this.terminated = new CountDownLatch(workerCount);
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
        return terminated.getCount() == 0;
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
        PooledJob j = pooledJob(w);
        j.job = job;
        j.name = jobName;
        j.priority = priority.ordinal();
        j.counter = counter;
        j.group = group;
        submit(j, w);
    }

    /** A recycled fire-and-forget node of worker {@code w} (null: outside the workers), or a new one. */
    private static PooledJob pooledJob(Worker w) {
        PooledJob j = w != null ? (PooledJob) w.takeFree(w.freeJobs, w.returnedJobs) : null;
        if (j == null) {
            j = new PooledJob();
            j.home = w;
        }
        return j;
    }

    /** Submits several jobs with one counter: one atomic add for the batch, one wake-up at most. */
    void runBatch(Priority priority, Counter counter, Job[] batch) {
        if (priority == null || batch == null) {
            throw new NullPointerException("priority and jobs must not be null");
        }
        for (Job job : batch) {
            if (job == null) {
                throw new NullPointerException("a job in the batch is null (none of the batch was submitted)");
            }
        }
        Worker w = Worker.current(this);
        if (w == null || runState >= STOPPING) {
            for (Job job : batch) {
                run(priority, null, job, counter, null);    // the outside path admits each job
            }
            return;
        }
        if (counter != null) {
            counter.add(batch.length);
        }
        JobGroup group = inheritedGroup(w);
        boolean wasEmpty = false;
        for (Job job : batch) {
            PooledJob j = pooledJob(w);
            j.job = job;
            j.priority = priority.ordinal();
            j.counter = counter;
            j.group = group;
            if (group != null && group.isCancelled()) {
                cancelledBeforeStart(this, j);
                continue;
            }
            wasEmpty |= w.jobs[j.priority].push(j);
        }
        if (wasEmpty && workers.length > 1) {
            signalWork();
        }
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
        if (runState >= STOPPING) {
            throw rejected("onMainThread");
        }
        // A main-thread job submitted by a job belongs to that job's group (a cancelled level's uploads
        // are cancelled too).
        JobHandle<T> h = new JobHandle<>(this, jobName, Priority.FRAME, callable, null,
                inheritedGroup(Worker.current(this)));
        mainThread.offer(h);
        return h;
    }

    void parallelFor(Priority priority, int from, int to, int grain, RangeJob body, Counter counter) {
        if (body == null) {
            throw new NullPointerException("body is null: pass (start, end, worker) -> { ... }");
        }
        if (grain < 1) {
            throw new IllegalArgumentException("grain must be >= 1 (the smallest range a body gets), got " + grain);
        }
        if (to < from) {
            throw new IllegalArgumentException("empty or reversed range [" + from + ", " + to + ")");
        }
        if (to == from) {
            return;
        }
        Worker w = Worker.current(this);
        RangeNode r = newRange(w, body, from, to, grain, counter, priority.ordinal(), null);
        submit(r, w);
    }

    /** A worker splitting a range pushes the upper half onto its own deque. */
    void pushRange(Worker w, RangeJob body, int start, int end, int grain, Counter counter, int priority,
                   JobGroup group) {
        RangeNode r = newRange(w, body, start, end, grain, counter, priority, group);
        if (counter != null) {
            counter.add(1);
        }
        if (w.jobs[priority].push(r)) {
            signalWork();
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

    private JobGroup inheritedGroup(Worker w) {
        Fiber f = w != null ? w.mounted : null;
        JobNode current = f != null ? f.currentJob : null;
        return current != null ? current.group : null;
    }

    /** The common path of every submission; {@code w} is the current worker or null. */
    private void submit(JobNode j, Worker w) {
        if (w != null) {
            if (runState >= STOPPING) {
                throw rejected("submit");
            }
            if (j.group == null) {
                j.group = inheritedGroup(w);
            }
            if (j.counter != null) {
                j.counter.add(1);
            }
            if (j.group != null && j.group.isCancelled()) {
                cancelledBeforeStart(this, j);
                return;
            }
            if (w.jobs[j.priority].push(j) && workers.length > 1) {   // alone, there is nobody to wake
                signalWork();
            }
            return;
        }
        externalSubmitters.incrementAndGet();      // before reading runState: see "Shutdown"
        try {
            if (runState != RUNNING) {
                throw rejected("submit");
            }
            if (j.counter != null) {
                j.counter.add(1);
            }
            if (j.group != null && j.group.isCancelled()) {
                cancelledBeforeStart(this, j);
                return;
            }
            injectedJobs[j.priority].offer(j);
            signalWork();
        } finally {
            externalSubmitters.decrementAndGet();
        }
    }

    private RejectedExecutionException rejected(String what) {
        String state = switch (runState) {
            case CLOSING -> "closing (close() was called): only jobs already running may still submit";
            case STOPPING -> "stopping (shutdownNow() was called)";
            case TERMINATED -> "terminated";
            default -> "running";
        };
        return new RejectedExecutionException(what + " refused: job system '" + name + "' is " + state
                + ". Submit work before closing the job system.");
    }

    /** A plain virtual thread started inside a job inherited a fiber as its scheduler: run it here. */
    void executeForeign(Runnable continuation) {
        if (runState == TERMINATED) {
            throw new RejectedExecutionException("job system '" + name + "' is terminated; a virtual thread "
                    + "started inside one of its jobs cannot run any more");
        }
        enqueueReady(continuation, Priority.NORMAL.ordinal());
    }

    /** A parked fiber became runnable (the JDK called its executor). */
    void fiberReady(Fiber f) {
        enqueueReady(f, f.readyPriority);
    }

    private void enqueueReady(Object item, int priority) {
        Worker w = Worker.current(this);
        if (w != null) {
            if (w.ready[priority].push(item)) {
                signalWork();
            }
        } else {
            injectedReady[priority].offer(item);
            signalWork();
        }
    }

    // ------------------------------------------------------------------ picking work

    /**
     * The next thing for worker {@code w} to do: a {@link JobNode} to start, or a ready {@link Fiber}
     * (or foreign continuation) to mount; null if nothing was found. Owner thread of {@code w} only.
     */
    Object pollNext(Worker w, boolean onFiber) {
        int first = firstPriorityToScan(++w.pollCount);
        boolean readyOnly = w.exhaustedSinceNanos != 0 && !w.retryDryPool;
        w.retryDryPool = false;
        for (int i = 0; i < Priority.COUNT; i++) {
            int p = (first + i) % Priority.COUNT;
            Object x = pollPriority(w, p, readyOnly);
            if (x != null) {
                return x;
            }
        }
        return null;
    }

    /**
     * The starvation bound. Most scans start at FRAME. Every {@link JobSystem#STARVATION_INTERVAL}th
     * scan starts at a lower priority instead, taking turns (NORMAL, then BACKGROUND, then NORMAL...) and
     * wrapping round to FRAME after BACKGROUND. So while a priority has queued work, each worker picks
     * it at least once every {@code STARVATION_INTERVAL × (Priority.COUNT − 1)} scans (128), whatever
     * keeps the other two busy. (A plain reverse scan, BACKGROUND first, let NORMAL starve whenever FRAME
     * and BACKGROUND both always had work.)
     */
    static int firstPriorityToScan(int pollCount) {
        if ((pollCount & (JobSystem.STARVATION_INTERVAL - 1)) != 0) {
            return 0;
        }
        int turn = pollCount >>> Integer.numberOfTrailingZeros(JobSystem.STARVATION_INTERVAL);   // >= 0
        return 1 + turn % (Priority.COUNT - 1);
    }

    private Object pollPriority(Worker w, int p, boolean readyOnly) {
        Object x;
        WorkStealingDeque<Object> ownReady = w.ready[p];
        if (!ownReady.isEmpty() && (x = ownReady.pop()) != null) {
            return x;
        }
        if (!readyOnly) {
            WorkStealingDeque<JobNode> own = w.jobs[p];
            if (!own.isEmpty()) {
                java.util.SplittableRandom seeded = w.seededChoices;   // deterministic mode only
                x = seeded != null && seeded.nextBoolean() ? own.steal() : own.pop();
                if (x != null) {
                    return x;
                }
            }
        }
        if ((x = injectedReady[p].poll()) != null) {
            return x;
        }
        if (!readyOnly && (x = pollInjectedJobs(w, p)) != null) {
            return x;
        }
        return steal(w, p, readyOnly);
    }

    private Object pollInjectedJobs(Worker w, int p) {
        InjectionQueue<JobNode> q = injectedJobs[p];
        if (q.isEmpty()) {
            return null;
        }
        WorkStealingDeque<JobNode> own = w.jobs[p];
        int moved = q.drain(own::push, INJECTED_BATCH);
        if (moved > 1) {
            signalWork();                  // the batch is stealable now: let a sleeping worker share it
        }
        return moved > 0 ? own.pop() : null;
    }

    private Object steal(Worker w, int p, boolean readyOnly) {
        Worker[] ws = workers;
        int n = ws.length;
        if (n == 1) {
            return null;
        }
        int start = w.nextRandom() % n;
        for (int k = 0; k < n; k++) {
            Worker v = ws[(start + k) % n];
            if (v == w) {
                continue;
            }
            Object x = stealFrom(w, v.ready[p]);
            if (x == null && !readyOnly && (x = stealFrom(w, v.jobs[p])) != null) {
                stealMore(w, v.jobs[p], w.jobs[p]);
            }
            if (x != null) {
                return x;
            }
        }
        return null;
    }

    private Object stealFrom(Worker thief, WorkStealingDeque<?> victim) {
        if (victim.isEmpty()) {
            return null;
        }
        thief.count(Worker.STEAL_ATTEMPTS);
        Object x = victim.steal();
        if (x != null) {
            countSteal(thief, x);
            if (!victim.isEmpty()) {
                signalWork();              // the chain: more is left for a sleeping worker
            }
        }
        return x;
    }

    /**
     * After a successful steal of a job, takes up to half of what the victim still holds (at most
     * {@link #STEAL_BATCH} − 1 more) into the thief's own deque, one ordinary steal each. A lone steal
     * moves the victim's {@code top} line and a slot line to the thief for one job; consecutive steals
     * find both lines already in the thief's cache, so a batch costs about one transfer instead of one
     * per job (EmptyJobs, 2 workers: half the jobs were stolen one at a time). Taking at most half
     * leaves the victim its freshest work. Each is a plain Chase–Lev steal, so the deque's protocol and
     * proofs are unchanged; a job in flight between the two deques is held by an awake worker, as a
     * single stolen job is, and {@code admit} cancels it if shutdownNow came meanwhile.
     */
    private void stealMore(Worker thief, WorkStealingDeque<JobNode> victim, WorkStealingDeque<JobNode> own) {
        int more = Math.min(STEAL_BATCH - 1, victim.size() / 2);
        for (int i = 0; i < more; i++) {
            JobNode j = victim.steal();
            if (j == null) {
                return;                        // lost a race (another thief or the owner's last pop)
            }
            countSteal(thief, j);
            own.push(j);                       // the thief is awake and will pop it: nobody to wake
        }
    }

    private void countSteal(Worker thief, Object item) {
        thief.count(Worker.STEALS);
        if (isObserved()) {
            stole(thief, item);
        }
    }

    /** Any queue anywhere non-empty? Reads only (used by spinning and the pre-park re-check). */
    boolean hasVisibleWork() {
        for (int p = 0; p < Priority.COUNT; p++) {
            if (!injectedJobs[p].isEmpty() || !injectedReady[p].isEmpty()) {
                return true;
            }
        }
        for (Worker v : workers) {
            for (int p = 0; p < Priority.COUNT; p++) {
                if (!v.jobs[p].isEmpty() || !v.ready[p].isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ running jobs

    /** Carrier side: start {@code job} on a pooled (or new) fiber, which becomes {@code w.next}. */
    void startOnFiber(Worker w, JobNode job) {
        Fiber f = idleFibers.poll();
        if (f == null) {
            f = newFiber(w);
            if (f == null) {
                onPoolDry(w, job);
                return;
            }
        }
        w.exhaustedSinceNanos = 0;
        busyFibers.incrementAndGet();      // before the fiber can run: see WorkerParking.decide
        f.firstJob = job;                  // published to the fiber by resumeOn's unpark (or start)
        f.resumeOn(w);
    }

    private Fiber newFiber(Worker w) {
        int max = fiberPolicy.maxFibers();
        for (;;) {
            int c = fiberCount.get();
            if (c >= max) {
                return null;
            }
            if (fiberCount.compareAndSet(c, c + 1)) {
                break;
            }
        }
        Fiber f = new Fiber(this, name + "-fiber-" + fiberIds.incrementAndGet());
        allFibers.add(f);
        w.count(Worker.FIBERS_CREATED);
        return f;
    }

    private void onPoolDry(Worker w, JobNode job) {
        long now = System.nanoTime();
        if (w.exhaustedSinceNanos == 0) {
            w.exhaustedSinceNanos = now;
        }
        if (now - w.exhaustedSinceNanos >= fiberPolicy.exhaustionTimeout().toNanos()) {
            if (job.tryStart()) {
                finish(job, new FiberPoolExhaustedException("job '" + job.name() + "' could not start: all "
                        + fiberPolicy.maxFibers() + " fibers of job system '" + name + "' have been parked in "
                        + "waits for " + fiberPolicy.exhaustionTimeout().toMillis() + " ms, each waiting on "
                        + "work that needs a fiber to start. Raise FiberPoolPolicy.bounded(n) or use "
                        + "FiberPoolPolicy.growable()."));
            }
            return;
        }
        if (w.jobs[job.priority].push(job)) {
            signalWork();
        }
    }

    /**
     * Decides at start whether a job runs (true) or is cancelled (completed, counted). A job a worker has
     * taken out of a queue starts even after shutdownNow(), with {@link Jobs#isCancelled()} true: taking
     * it (pop, steal or poll) is exclusive with shutdownNow's drain, so every job either is in the list
     * shutdownNow returns or ran — none is cancelled after that list was made and missing from it.
     */
    boolean admit(JobNode job) {
        if (job.isCancellationRequested()) {
            cancelledBeforeStart(this, job);
            return false;
        }
        return job.tryStart();             // false: its handle's cancel() won and completed it
    }

    /**
     * A job ended after running, on the current thread (a fiber, a worker's carrier, or the main thread):
     * count it, complete it, recycle it.
     */
    void finish(JobNode job, Throwable failure) {
        Worker ran = Worker.current(this);
        if (ran != null) {
            ran.count(Worker.JOBS_RUN);
        }
        job.markDone();
        // A job that ends by throwing JobCancelledException after being asked to stop honoured the
        // cancellation: it completes as cancelled, not failed (its counter records no failure).
        boolean honouredCancel = failure instanceof JobCancelledException
                && (job.isCancellationRequested() || isStopping());
        try {
            job.complete(honouredCancel ? null : failure, honouredCancel);
        } catch (RuntimeException misuse) {
            uncaughtFailureHandler.accept(job.name(), misuse);   // e.g. a counter decremented below zero
        }
        // complete() ran user code (the uncaught-failure handler, CompletableFuture dependents), which may
        // have parked this fiber and resumed it on another worker: the free list the node goes to is the
        // one of the worker we are on now, never the one we started on (its owner may be using it).
        Worker now = Worker.current(this);
        if (now != null) {
            job.recycle(now);
        }
    }

    /** NEW → CANCELLED, if this call wins the CAS: complete the job as cancelled and report it. */
    static void cancelledBeforeStart(Scheduler s, JobNode job) {
        if (job.tryCancel()) {
            completeCancelled(s, job);
        }
    }

    /**
     * Completes a job whose NEW → CANCELLED CAS the caller just won: exactly once per job, so a node
     * cancelled through its handle and later found in a queue (by a worker, a group cancel or
     * shutdownNow) is not completed again — its CAS fails there.
     */
    static void completeCancelled(Scheduler s, JobNode job) {
        if (s != null) {
            s.reportCancelled(job);            // first: whoever sees the counter at zero finds it counted
        }
        job.complete(null, true);
    }

    private void reportCancelled(JobNode job) {
        Worker w = Worker.current(this);
        if (w != null) {
            w.count(Worker.JOBS_CANCELLED);
        } else {
            cancelledOutsideWorkers.incrementAndGet();
        }
        if (runState >= STOPPING) {
            cancelledReport.add(JobInfo.of(job));
        }
    }

    /** Completes a job's counter; a failure nobody can observe goes to the uncaught-failure handler. */
    static void completeCounter(JobNode job, Counter c, Throwable failure) {
        if (c != null) {
            c.jobEnded(job, failure);
        } else if (failure != null && !(job instanceof JobHandle) && !(failure instanceof JobCancelledException)) {
            Fiber f = Fiber.current();
            Scheduler s = f != null ? f.scheduler : null;
            if (s != null) {
                s.uncaughtFailureHandler.accept(job.name(), failure);
            } else {
                System.err.println("weft: job '" + job.name() + "' failed and nobody waits for it: " + failure);
            }
        }
    }

    // ------------------------------------------------------------------ fibers in waits

    void fiberParking(Fiber f) {
        parkedFibers.incrementAndGet();
        Worker w = Worker.current(this);
        if (w != null) {
            w.count(Worker.WAITS);
        }
        if (runState >= STOPPING) {
            f.cancelWait();
        }
    }

    void fiberResumed(Fiber f) {
        parkedFibers.decrementAndGet();
    }

    void cancelWaitsOf(JobGroup g) {
        for (Fiber f : allFibers) {
            WaitNode n = f.waitNode;
            JobNode waiting = n != null ? n.job : null;   // read once: the waiter clears it when done
            if (waiting != null && waiting.group == g) {
                n.cancel();                    // the waiting job's own group decides, as for handles
            }
        }
    }

    // ------------------------------------------------------------------ idling and waking workers
    // WorkerParking owns these; the delegates keep the call sites' names.

    void idle(Worker w) {
        parking.idle(w);
    }

    /** Called after publishing work at an empty→non-empty transition. */
    void signalWork() {
        parking.signalWork();
    }

    /** A fiber is about to park itself in the idle pool. */
    void fiberIdle() {
        parking.fiberIdle();
    }

    /** The termination decision (WorkerParking) ends the system: nothing could make new work any more. */
    void markTerminated() {
        RUN_STATE.setVolatile(this, TERMINATED);
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
                break;
            }
        }
        parking.wakeAll();                 // every worker re-parks; the last one checks for quiescence
    }

    List<JobInfo> shutdownNow() {
        for (;;) {
            int rs = runState;
            if (rs >= STOPPING || RUN_STATE.compareAndSet(this, rs, STOPPING)) {
                break;
            }
        }
        // Take every queued job out (steal is safe from any thread; the injection turn serializes us with
        // workers) and cancel it. A job a worker takes concurrently is the worker's (the take is one CAS,
        // or the owner's pop): it runs, seeing isCancelled(). So the list below is exact: every job that
        // never ran is in it, and nothing in it ran.
        for (int p = 0; p < Priority.COUNT; p++) {
            JobNode j;
            while ((j = injectedJobs[p].poll()) != null || !injectedJobs[p].isEmpty()) {
                if (j != null) {
                    cancelledBeforeStart(this, j);
                }
            }
            for (Worker w : workers) {
                while (!w.jobs[p].isEmpty()) {
                    j = w.jobs[p].steal();
                    if (j != null) {
                        cancelledBeforeStart(this, j);
                    }
                }
            }
        }
        mainThread.cancelQueued();         // main-thread jobs nobody ran yet: reported like the rest
        for (Fiber f : allFibers) {        // runState (volatile) was written first: Dekker with beginWait
            f.cancelWait();
        }
        parking.wakeAll();
        return new ArrayList<>(cancelledReport);
    }

    /** Waits for termination, running main-thread jobs meanwhile if called on the main thread. */
    boolean awaitTermination(Duration timeout) throws InterruptedException {
        if (Worker.current(this) != null) {
            throw new IllegalStateException("awaitTermination/close called from inside a job of '" + name
                    + "': the system cannot stop while that job runs, so it would wait for itself. Call "
                    + "shutdown() from the job, and wait for termination on another thread.");
        }
        long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
        boolean owner = mainThread.owner() == Thread.currentThread();
        for (;;) {
            if (owner) {
                mainThread.runPendingWhileWaiting();
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return terminated.getCount() == 0;
            }
            long slice = owner ? Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(1)) : remaining;
            if (terminated.await(slice, TimeUnit.NANOSECONDS)) {
                mainThread.cancelAll();        // each is reported (once) by completeCancelled
                if (owner) {
                    mainThread.unbind();
                }
                return true;
            }
        }
    }

    void retireIdleFibers(Worker w) {
        Fiber f;
        while ((f = idleFibers.poll()) != null) {
            f.retire = true;
            f.resumeOn(w);
            Object item = w.next;
            w.next = null;
            if (item instanceof Fiber ready) {
                w.mounted = ready;
                try {
                    ready.continuation().run();
                } finally {
                    w.mounted = null;
                }
            }
        }
    }

    void workerExited(Worker w) {
        terminated.countDown();
    }

    /** On the worker's own thread, first thing: pin it to CPU (index mod CPUs) if asked to. */
    void maybePin(Worker w) {
        if (!pinWorkers) {
            return;
        }
        int cpu = w.index % Runtime.getRuntime().availableProcessors();
        java.util.Optional<String> failure = dev.weft.internal.CpuAffinity.pinCurrentThread(cpu);
        if (failure.isEmpty()) {
            w.pinnedCpu = cpu;
        } else if (w.index == 0) {
            System.err.println("weft: workers of '" + name + "' run unpinned: " + failure.get());
        }
    }

    // ------------------------------------------------------------------ tracing and JFR

    JobTrace startTrace(int eventsPerWorker) {
        if (eventsPerWorker < 1) {
            throw new IllegalArgumentException("eventsPerWorker must be >= 1, got " + eventsPerWorker);
        }
        if (!OBSERVATION_HOOKS) {
            throw new IllegalStateException("job traces are compiled out in this JVM: it was started with "
                    + "-Dweft.internal.observationHooks=false (a benchmark setting); drop that flag to record");
        }
        JobTrace t = new JobTrace(this, workers.length + 1, eventsPerWorker);
        JobTrace old = trace;
        if (old != null) {
            throw new IllegalStateException("a trace of '" + name + "' is already recording; stop() it first");
        }
        trace = t;
        return t;
    }

    void stopTrace(JobTrace t) {
        if (trace == t) {
            trace = null;
        }
    }

    /**
     * Measurement only: {@code -Dweft.internal.observationHooks=false} makes {@link #isObserved()} a
     * constant false, so the JIT drops the recording hooks from the job path altogether. The bench's
     * {@code RecordingOverhead} runs EmptyJobs with and without it to price the hooks when nothing
     * records (the "recording off costs at most 2%" budget). Not a user setting: traces and JFR events
     * are then refused or absent.
     */
    static final boolean OBSERVATION_HOOKS =
            !"false".equals(System.getProperty("weft.internal.observationHooks"));

    /** One or two volatile reads: is anyone recording (a JobTrace, or a JFR recording)? */
    boolean isObserved() {
        return OBSERVATION_HOOKS && (trace != null || JfrEvents.active);
    }

    private int track() {
        Worker w = Worker.current(this);
        return w != null ? w.index : workers.length;       // the last track is the main thread
    }

    /** Token for {@link #jobEnded}: the JFR event in progress, or a marker. */
    Object jobBegan(JobNode job) {
        JobTrace t = trace;
        if (t != null) {
            t.record(track(), JobTrace.BEGIN, job.name());
        }
        if (JfrEvents.active) {
            JfrEvents.JobEvent e = new JfrEvents.JobEvent();
            e.job = job.name();
            e.worker = track();
            e.begin();
            return e;
        }
        return Boolean.TRUE;
    }

    void jobEnded(JobNode job, Object token) {
        JobTrace t = trace;
        if (t != null) {
            t.record(track(), JobTrace.END, job.name());
        }
        if (token instanceof JfrEvents.JobEvent e) {
            e.commit();
        }
    }

    Object fiberParked(Fiber f, Counter counter) {
        JobTrace t = trace;
        JobNode j = f.currentJob;
        String label = (j != null ? j.name() : "?") + " waits on " + counter.name();
        if (t != null) {
            t.record(track(), JobTrace.PARK, label);
        }
        if (JfrEvents.active) {
            JfrEvents.ParkEvent e = new JfrEvents.ParkEvent();
            e.job = j != null ? j.name() : "?";
            e.counter = counter.name();
            e.worker = track();
            e.begin();
            return e;
        }
        return label;
    }

    void fiberUnparked(Fiber f, Object token) {
        JobTrace t = trace;
        JobNode j = f.currentJob;
        if (t != null) {
            t.record(track(), JobTrace.RESUME, j != null ? j.name() : "?");
        }
        if (token instanceof JfrEvents.ParkEvent e) {
            e.commit();
        }
    }

    private void stole(Worker thief, Object item) {
        JobTrace t = trace;
        if (t != null) {
            t.record(thief.index, JobTrace.STEAL, item instanceof JobNode j ? j.name() : "fiber");
        }
        if (JfrEvents.active) {
            JfrEvents.StealEvent e = new JfrEvents.StealEvent();
            e.thief = thief.index;
            e.commit();
        }
    }

    // ------------------------------------------------------------------ statistics

    JobSystemStats stats() {
        int n = workers.length;
        long[][] perWorker = new long[n][];
        for (int i = 0; i < n; i++) {
            Worker w = workers[i];
            long[] s = new long[Worker.STAT_COUNT];
            for (int k = 0; k < Worker.STAT_COUNT; k++) {
                s[k] = w.stat(k);
            }
            perWorker[i] = s;
        }
        long live = allFibers.stream().filter(f -> f.thread.isAlive()).count();
        return JobSystemStats.of(perWorker, mainThread.jobsRun(), cancelledOutsideWorkers.get(),
                fiberCount.get(), live, parkedFibers.get());
    }

    /** For tests and the watchdog: every fiber ever made (live or retired). */
    Set<Fiber> fibers() {
        return allFibers;
    }
}
