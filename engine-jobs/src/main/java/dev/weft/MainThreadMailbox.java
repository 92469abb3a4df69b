package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import dev.weft.internal.InjectionQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Work for the one thread that owns the window and GL context: many producers (fibers, I/O threads),
 * one consumer (the owner), as in the mailbox rule of the synchronization spec.
 *
 * <p>Producers offer to a JCTools MPSC queue (one XADD; an {@link InjectionQueue}, so that besides the
 * owner {@code shutdownNow()} may take the consumer turn and cancel what is queued) and then read
 * {@link #asleep}; only if the owner
 * is asleep (parked inside a wait) does a producer CAS it awake and unpark it — the sleep→awake
 * transition, once. The owner sets {@code asleep} (volatile) and then re-reads the queue before
 * parking, so an offer that raced with going to sleep is seen either by the producer (asleep = 1) or by
 * the owner's re-check (queue non-empty): never lost.
 *
 * <p>The owner is the thread that first calls {@link JobSystem#runMainThreadJobs(long)} (or
 * {@link JobSystem#bindMainThread()}). With none bound, close() cancels queued main-thread jobs as they
 * come: nobody would ever run them. Any wait on that thread keeps running main-thread jobs, so
 * "decode on a worker, upload on the GL thread, continue" cannot deadlock the main thread.
 */
final class MainThreadMailbox {
    private static final ThreadLocal<MainThreadMailbox> OWNED = new ThreadLocal<>();
    private static final ThreadLocal<JobHandle<?>> RUNNING = new ThreadLocal<>();
    private static final VarHandle ASLEEP;

    static {
        try {
            ASLEEP = MethodHandles.lookup().findVarHandle(MainThreadMailbox.class, "asleep", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Scheduler scheduler;
    private final InjectionQueue<JobHandle<?>> queue;
    private volatile Thread owner;      // set once by bind()
    // Set once by the waiter that prints nobodyRunsThemHint (CounterWait's untimed wait, a join's included); a CAS.
    private final AtomicBoolean warnedNobodyRuns = new AtomicBoolean();
    private volatile int asleep;        // 1 while the owner is parked in a wait; producers CAS 1 -> 0
    private long jobsRun;               // owner only
    // The innermost main-thread job the owner is running, or null: for the watchdog, which cannot read the
    // owner's RUNNING ThreadLocal. Written by the owner around each job (volatile: main-thread jobs are a few
    // uploads a frame, not the worker's job path); read by the watchdog thread only.
    private volatile JobHandle<?> runningForWatchdog;

    MainThreadMailbox(Scheduler scheduler) {
        this(scheduler, new InjectionQueue<>());
    }

    /** For the jcstress handshake tests: a queue with small chunks reaches the chunk-linking offer at once. */
    MainThreadMailbox(Scheduler scheduler, InjectionQueue<JobHandle<?>> queue) {
        this.scheduler = scheduler;
        this.queue = queue;
    }

    /** The mailbox the current thread owns, if any (Counter waits use it to keep draining). */
    static MainThreadMailbox ownedByCurrentThread() {
        return OWNED.get();
    }

    /**
     * The owner thread runs a helped job with its ThreadLocals detached (WaitingHelp): it still owns its
     * mailbox, so a wait inside that job keeps running main-thread jobs.
     */
    static void keepOwnership(MainThreadMailbox m, JobHandle<?> running) {
        // Both set even when null: the entries then exist, so the helped job's own reads of them (a wait
        // asks whether its thread owns a mailbox) add none, and its map stays reusable (HelpedJobLocals).
        OWNED.set(m);
        RUNNING.set(running);
    }

    static JobHandle<?> runningOnCurrentThread() {
        return RUNNING.get();
    }

    /** True if the current thread is running a main-thread job of {@code s}: it may submit while closing. */
    static boolean runningJobOf(Scheduler s) {
        JobHandle<?> h = RUNNING.get();
        return h != null && h.belongsTo(s);
    }

    static boolean isRunningOnCurrentThread(JobHandle<?> h) {
        return RUNNING.get() == h;
    }

    /** The main-thread job the owner is running now (the innermost), or null; for the watchdog. */
    JobHandle<?> runningJob() {
        return runningForWatchdog;
    }

    Thread owner() {
        return owner;
    }

    /**
     * A canceller, after its volatile write: a main-thread job the owner is running may be parked in a
     * wait, which re-reads its cancellation when woken (CounterWait). Unconditional: the owner's running
     * job is in its ThreadLocal, which we cannot read, and a spurious unpark only costs it one more check.
     */
    void wakeOwnerForCancel() {
        Thread o = owner;
        if (o != null) {
            LockSupport.unpark(o);
        }
    }

    /** No thread will run main-thread jobs: none was bound, or it ended (a main() that returned). */
    private boolean ownerGone() {
        Thread o = owner;
        return o == null || !o.isAlive();
    }

    /**
     * A thread waiting for termination that is not the owner: if no thread will run them ({@link #ownerGone}),
     * cancels the queued main-thread jobs now, each listed for shutdownNow as termination would, rather than
     * at termination, which a job waiting on one would otherwise keep from coming (close hung). Returns
     * whether the owner is gone.
     */
    boolean cancelQueuedIfOwnerGone() {
        boolean gone = ownerGone();
        if (gone && !queue.isEmpty()) {
            cancelQueuedUnowned();
        }
        return gone;
    }

    /**
     * Any thread: what a timeout message or the watchdog should add when main-thread jobs are queued
     * and no thread has ever run them (nobody called {@code bindMainThread} or {@code runMainThreadJobs}),
     * so that a wait which needs one of them can never end; else "".
     */
    String nobodyRunsThemHint() {
        if (owner != null || queue.isEmpty()) {
            return "";
        }
        return "main-thread jobs are queued and no thread runs them: call jobs.bindMainThread() on the thread"
                + " that owns the window and GL context, then jobs.runMainThreadJobs(budgetNanos) each frame"
                + " (a wait on that thread runs them too)";
    }

    /**
     * The first plain thread's untimed wait that has lasted {@link CounterWait#NOBODY_RUNS_WARNING_NANOS}
     * while {@link #nobodyRunsThemHint()} applies says so on stderr ({@code waiting}: what it waits in, such
     * as "on counter 'frame'"): one line per system, whoever wins the CAS. Cold: every 2 s of such a wait.
     */
    void warnIfNobodyRuns(String waiting) {
        String hint = nobodyRunsThemHint();
        if (!hint.isEmpty() && warnedNobodyRuns.compareAndSet(false, true)) {
            System.err.println("weft: thread " + Thread.currentThread().getName() + " has waited "
                    + CounterWait.NOBODY_RUNS_WARNING_NANOS / 1_000_000_000L + " s " + waiting + " of '"
                    + scheduler.name() + "' and may wait for ever: " + hint);
        }
    }

    long jobsRun() {
        return jobsRun;
    }

    synchronized void bind() {           // cold path: once per job system
        Thread t = Thread.currentThread();
        Thread o = owner;
        if (o == t) {
            return;
        }
        // An owner that ended (a render thread restarted after losing its device) hands over to the next
        // thread that binds: refusing it ("already run on render-1", a dead thread) left every main-thread
        // job, and each job joining one, waiting until close().
        if (o != null && o.isAlive()) {
            throw new IllegalStateException("main-thread jobs of '" + scheduler.name() + "' already run on "
                    + o.getName() + "; call runMainThreadJobs only from that thread (it owns the GL context)");
        }
        if (t.isVirtual()) {
            throw new IllegalStateException("the main thread must be a platform thread (it owns the window and "
                    + "GL context); bindMainThread or runMainThreadJobs was called from virtual thread " + t
                    + (Jobs.inFiber() ? ", a job's fiber: call it on the thread that runs the game loop, outside jobs"
                            : ""));
        }
        MainThreadMailbox previous = OWNED.get();
        if (previous != null) {
            // The binding is released only when this thread itself waits for that system's termination
            // (TerminationWait). A system stopped by shutdownNow() without awaitTermination, or closed by
            // another thread, left it bound here for ever: the game's next system was refused and the old
            // one stayed reachable from this thread. Stopping, it needs no main thread any more.
            if (!previous.scheduler.isStopping()) {
                throw new IllegalStateException("thread " + t.getName() + " is already the main thread of job "
                        + "system '" + previous.scheduler.name() + "', which is "
                        + (previous.scheduler.runState() == Scheduler.RUNNING ? "running"
                                : "closing and may still post main-thread jobs")
                        + ": a thread runs the main-thread jobs of one job system at a time. Close '"
                        + previous.scheduler.name() + "' (or call shutdownNow() on it) before binding '"
                        + scheduler.name() + "' here, or bind '" + scheduler.name() + "' on another thread");
            }
            previous.release(t);
        }
        owner = t;
        OWNED.set(this);
    }

    /**
     * A stopped system's main thread bound another system (bind): nobody will run what is still queued
     * here, so it is cancelled (shutdownNow() cancelled what was queued when it was called; a post racing
     * it may have landed since), and later posts are refused, as the run state is STOPPING or beyond.
     * {@code owner} is cleared, so a thread waiting for termination cancels what it finds (ownerGone).
     */
    private synchronized void release(Thread formerOwner) {
        if (owner == formerOwner) {
            owner = null;
        }
        cancelQueued();
    }

    void unbind() {
        if (owner == Thread.currentThread()) {
            OWNED.remove();
        }
    }

    /**
     * {@code JobSystem.onMainThread}, after its argument checks: queues a main-thread job, or refuses it
     * if the system no longer takes one from the calling thread.
     */
    <T> JobHandle<T> post(String jobName, Callable<T> callable) {
        Scheduler s = scheduler;
        Worker w = Worker.current(s);
        if (w != null) {                 // a running job holds termination off: accepted while closing
            if (s.runState() >= Scheduler.STOPPING) {
                throw s.rejected("onMainThread");
            }
            return offerNew(jobName, callable, s.inheritedGroup(w));
        }
        // Any other thread (an I/O thread posting uploads) registers as a submit does, so that termination
        // waits for its offer: a post that read CLOSING and queued after the last pass over the mailbox at
        // termination was neither run nor cancelled, and its joiner hung. While closing, only a job a
        // waiting thread runs for us (WaitingHelp) and the owner itself may post: the owner is this
        // mailbox's consumer, so what it posts it runs (or its own close cancels).
        s.externalSubmitters.incrementAndGet();   // XADD, before reading runState (Scheduler, "Shutdown")
        try {
            if (!s.outsideMayAdd(s.runState(), owner == Thread.currentThread())) {
                throw s.rejected("onMainThread");
            }
            return offerNew(jobName, callable, s.waitingHelp != null ? Scheduler.inheritedGroupOutside() : null);
        } finally {
            s.externalSubmitters.decrementAndGet();
        }
    }

    // A main-thread job posted by a job belongs to that job's group (a cancelled level's uploads are
    // cancelled too).
    private <T> JobHandle<T> offerNew(String jobName, Callable<T> callable, JobGroup group) {
        JobHandle<T> h = new JobHandle<>(scheduler, jobName, Priority.FRAME, callable, null, group);
        offer(h);
        return h;
    }

    /** Any thread. */
    void offer(JobHandle<?> job) {
        queue.offer(job);
        // StoreLoad before the read of asleep (Dekker with the owner's asleep = 1, then its re-check of the
        // queue). The Xadd queue's XADD was that fence; the VarHandle queue's offer ends with a release
        // store when it starts a new chunk, which a later load may pass.
        VarHandle.fullFence();
        if (asleep == 1 && ASLEEP.compareAndSet(this, 1, 0)) {
            LockSupport.unpark(owner);
        }
    }

    /** Owner: runs queued jobs until the queue is empty or {@code budgetNanos} has passed. */
    int run(long budgetNanos) {
        checkOwner();
        long start = System.nanoTime();
        int n = 0;
        JobHandle<?> j;
        while ((j = queue.poll()) != null) {
            runOne(j);
            n++;
            if (System.nanoTime() - start >= budgetNanos) {
                break;
            }
        }
        return n;
    }

    /**
     * Owner, inside a wait on a counter or handle: runs the oldest queued job, if any; true if it ran one.
     * One at a time, so that the wait re-checks what it waits for after each job and returns as soon as that
     * is done: a wait overruns by at most the job in hand. It ran everything queued before, so a level's 300
     * one-millisecond uploads, queued while the main thread waited on its frame, all ran inside that wait
     * (an 824 ms frame, though the game loop gave main-thread work 2 ms per frame).
     */
    boolean runOneWhileWaiting() {
        JobHandle<?> j = queue.poll();
        if (j == null) {
            return false;
        }
        runOne(j);
        return true;
    }

    /** Owner, about to park: false if work arrived (do not park). */
    boolean sleep() {
        asleep = 1;                      // volatile store then load of the queue: pairs with offer()
        if (!queue.isEmpty()) {
            asleep = 0;
            return false;
        }
        return true;
    }

    /** Owner, after parking. */
    void wake() {
        asleep = 0;
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** For the jcstress handshake test: 1 while the owner is asleep and no producer has woken it. */
    int asleepForTests() {
        return asleep;
    }

    /**
     * shutdownNow, and every awaitTermination caller at termination (nobody will run what is left), on
     * any thread: cancels every queued main-thread job (each completes cancelled and is reported by
     * {@link JobNode#completeCancelled}). The owner, or another canceller, may take some concurrently: the
     * consumer turn gives each job to one of us, and a null poll on a non-empty queue waits out the other's
     * turn rather than stopping.
     */
    void cancelQueued() {
        cancelQueued(false);
    }

    /**
     * close() with no main thread bound: nobody will ever run them, so it cancels them now, each listed for
     * shutdownNow's report by {@link JobNode#completeCancelled(Scheduler, boolean)} (listed there only, once,
     * whatever the run state: see there).
     */
    private void cancelQueuedUnowned() {
        cancelQueued(true);
    }

    /**
     * The owner may run some concurrently: the consumer turn gives each job to one of us (a null poll on a
     * non-empty queue: the owner holds the turn).
     */
    private void cancelQueued(boolean listForShutdownNow) {
        JobHandle<?> j;
        while ((j = queue.poll()) != null || !queue.isEmpty()) {
            if (j == null) {
                Thread.onSpinWait();
            } else {
                j.cancelIfNotStarted(listForShutdownNow);
            }
        }
    }

    private void runOne(JobHandle<?> j) {
        if (!j.admit(scheduler)) {
            return;
        }
        JobHandle<?> outer = RUNNING.get();
        RUNNING.set(j);
        JobHandle<?> outerWatched = runningForWatchdog;
        runningForWatchdog = j;
        WaitingHelp helpedSeat = WaitingHelp.suspendForMainThreadJob();
        // The main thread's interrupt status is the game's, not the job's: left set, an upload's sleep or
        // wait threw InterruptedException (the job failed) and consumed it, so the game loop lost its
        // interrupt. Hidden while the job runs and put back after; one the job leaves is its own, as for a
        // job a waiting thread helps with (WaitingHelp) or one run nested on a fiber.
        boolean ownInterrupt = WaitingHelp.hideInterrupt();
        Throwable failure = null;
        Object observation = scheduler.observation.isObserved() ? scheduler.observation.jobBegan(j) : null;
        try {
            j.execute();
        } catch (Throwable t) {
            failure = t;
        } finally {
            WaitingHelp.restoreInterrupt(ownInterrupt);
            runningForWatchdog = outerWatched;
            RUNNING.set(outer);
            WaitingHelp.resumeAfter(helpedSeat);
            if (observation != null) {
                scheduler.observation.jobEnded(j, observation);
            }
        }
        jobsRun++;
        j.finishRun(scheduler, failure);
    }

    private void checkOwner() {
        Thread o = owner;
        if (o != Thread.currentThread()) {
            if (o == null || !o.isAlive()) {     // none bound yet, or it ended: this thread takes over
                bind();
                return;
            }
            throw new IllegalStateException("runMainThreadJobs called on " + Thread.currentThread().getName()
                    + " but main-thread jobs of '" + scheduler.name() + "' run on " + o.getName() + ": call it only"
                    + " from that thread (it owns the GL context); another thread takes over once it has ended");
        }
    }
}
