package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;

/**
 * An atomic completion counter, the one synchronization device of a Weft job graph (as in Naughty Dog's
 * engine). Each job submitted with a counter adds one when it is submitted and subtracts one when it
 * ends — normally, by throwing, or by being cancelled. {@link #await()} waits until the value is at or
 * below a target (zero by default): inside a job that parks the job's fiber, which frees the worker for
 * other jobs; on a plain thread it blocks that thread (one that waits 2 s while main-thread jobs are
 * queued and no thread was ever bound to run them says so on stderr: call
 * {@link JobSystem#bindMainThread()} on the game loop's thread).
 *
 * <pre>{@code
 * Counter animated = new Counter("animation");
 * for (Skeleton s : skeletons) jobs.run(Priority.FRAME, "animate", () -> s.animate(dt), animated);
 * animated.await();            // throws JobFailedException if any animate job threw
 * }</pre>
 *
 * <p>Failures are sticky: once a job of this counter failed, every {@code await} that returns throws
 * {@link JobFailedException} until {@link #clearFailure()}. Use a new counter per frame or per batch
 * (they are cheap) unless you mean to see old failures.
 *
 * <p>Misuse is refused without side effects: {@link #decrement(long)} below zero and {@link #add(long)}
 * past {@link Integer#MAX_VALUE} throw {@link IllegalStateException} and change nothing (each checks
 * before it writes, in one compare-and-set), so the value other threads see never leaves
 * {@code [0, Integer.MAX_VALUE]}.
 *
 * <p>Do not wait inside a static initializer ({@code static {}} or a static field's initial value): a
 * fiber cannot unmount there, so the wait blocks its worker (on 1 worker, the whole system) until it
 * ends; the watchdog names the class. Initialise such values outside jobs, or pass them in.
 *
 * <p>Thread safety: every method may be called from any thread. No lock is taken; see
 * {@code engine-jobs/SYNCHRONIZATION.md} ("Counter") for the protocol that makes wake-ups impossible
 * to lose.
 */
public final class Counter {
    private static final VarHandle STATE;
    private static final VarHandle WAITERS;
    private static final VarHandle MAX_WAIT_TARGET;
    private static final VarHandle FAILURE;
    private static final VarHandle WATCH_EPOCH;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(Counter.class, "state", long.class);
            WAITERS = l.findVarHandle(Counter.class, "waiters", WaitNode.class);
            MAX_WAIT_TARGET = l.findVarHandle(Counter.class, "maxWaitTarget", long.class);
            FAILURE = l.findVarHandle(Counter.class, "failure", JobFailedException.class);
            WATCH_EPOCH = l.findStaticVarHandle(Counter.class, "watchEpoch", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    // Low 32 bits: the value (0 to Integer.MAX_VALUE, never outside it, not even for a moment). High 32
    // bits: the epoch, +1 on every accepted add. One CAS updates both, so a decrement knows which adds
    // came before it: a waiter that registered after a later add (a re-armed counter) is not fired by an
    // earlier decrement's stale "reached zero".
    private volatile long state;
    private volatile WaitNode waiters;                    // Treiber stack: CAS push; dead nodes unlinked (push)
    private int pushesBeforeSweep;                        // push's countdown to unlinkDeadBelow; racy, a hint
    private volatile long maxWaitTarget;                  // >= every registered target; CAS-max, never lowered
                                                          // (starts at 0 without a fence: targets are >= 0)
    private volatile JobFailedException failure;          // first failure; CAS from null
    // Someone reads this counter's values between start and zero: the public value(), or a wait registered
    // for a target above zero. Workers then hold none of its decrements back (Worker.holdEnded, §13), which
    // would show ended jobs as pending. Set once to true (a racy set of true is idempotent), never cleared;
    // each first set then bumps WATCH_EPOCH (see watch()).
    volatile boolean watched;
    // +1 (XADD, so no bump is lost) each time a counter becomes watched, JVM-wide. A worker reads a counter's
    // flag once, when it starts holding that counter's decrements, and then only this: a line written once
    // per counter ever watched stays in every core's cache, where the counter's own line is its submitter's,
    // whose adds write it, and a read of it per job moved it between the cores (+30% in EmptyJobs from a job).
    private static volatile int watchEpoch;
    // A job of this counter was cancelled before it started, or stopped for its cancellation (ended by
    // JobCancelledException, or shutdownNow's InterruptedException, after being asked to stop). Read for the fresh counter of a blocking
    // fan-out (parallelFor, runAndWait), and by an await in a cancelled job, after its wait saw the value
    // reached. Plain: written before the cancelled job's decrement CAS, which that volatile read of the
    // value follows.
    // Never cleared, by design. On a counter reused for a new batch it makes one thing differ: a job that is
    // itself cancelled and awaits the counter throws JobCancelledException even when this batch all ran
    // (the message says the mark may be an earlier batch's). That outcome is always allowed to a cancelled
    // job: its wait throws it whenever it has to park. No one else reads it: a waiter that is not a
    // cancelled job returns, and fan-outs count on fresh counters. Clearing it when the value leaves zero
    // (a new batch) would race with the last batch's waiter, which reads it after seeing zero: a re-arm in
    // between would hide a real skip, and the cancelled job would return a half-done result again (what
    // CancelledFanOutTest guards). Exact batches need a bit in the state word beside the value, which
    // every read of the value would then mask: not worth it for a cancelled job's way of ending.
    boolean skippedJobs;
    // A JobGraph node's counter, which counts its one job and carries its name: a failure report names it as
    // that job, not as a counter (Prerequisites). Plain: written by JobGraph before the counter is published.
    boolean standsForItsJob;
    // The job system whose jobs this counter last counted: where an outside waiter looks for jobs to
    // help with (WaitingHelp) and whose unrun main-thread jobs its untimed wait warns of (CounterWait). Plain: written at submission (only when it changes), read by a waiter; a
    // stale null or older system only means no help, and a Scheduler is safely published (final fields).
    Scheduler helpScheduler;

    /** A counter at zero. */
    public Counter() {
        this(null);
    }

    /**
     * A named counter at zero; the name appears in errors, traces and watchdog reports.
     *
     * @param name the counter's name; may be null, then {@link #name()} derives one from its identity
     */
    public Counter(String name) {
        this.name = name;
    }

    /**
     * A counter born holding {@code pending} units, epoch 1: what {@code new Counter(name)} then
     * {@code add(pending)} leave, without the add's CAS. The write is plain: only for a counter nobody
     * else can see yet, published by what hands it over (a {@link JobHandle}'s waiter counter by the CAS
     * that installs it; {@code runAndWait}'s by the release store of the push that queues its jobs).
     */
    Counter(String name, int pending) {
        this.name = name;
        STATE.set(this, (1L << 32) + pending);
    }

    /**
     * The counter's name, or a default derived from its identity.
     *
     * @return the name given at construction, or {@code counter@<hex identity hash>} if none was
     */
    public String name() {
        return name != null ? name : "counter@" + Integer.toHexString(System.identityHashCode(this));
    }

    /**
     * The current value. Workers may subtract the ends of several jobs of one counter in one step
     * (SYNCHRONIZATION.md section 13); from the first call of this method on, a worker holds back at most
     * one ended job of this counter, and only until its next job ends or starts, so a progress display that
     * polls this sees jobs end as they end, give or take the job each worker is running.
     *
     * @return the number of pending units, never below zero
     */
    public long value() {
        watch();
        return pending();
    }

    /**
     * Marks this counter watched. The flag's volatile write comes before the epoch's XADD: a worker that
     * read the flag false at the start of its batch read the epoch before that (Worker.holdEnded), so the
     * XADD falls after its read, and its next look at the epoch sees it move.
     */
    private void watch() {
        if (!watched) {
            watched = true;
            WATCH_EPOCH.getAndAdd(1);
        }
    }

    /** How many times a counter became watched (a worker compares it with the value its batch began at). */
    static int watchEpoch() {
        return watchEpoch;
    }

    /** The value, for Weft's own reads: does not stop the workers holding decrements back. */
    long pending() {
        return (int) state;
    }

    /**
     * True if the value is zero.
     *
     * @return true if no unit is pending
     */
    public boolean isDone() {
        return (int) state == 0;
    }

    /** For tests: how many adds this counter accepted (its add-epoch, which wraps). */
    int addEpoch() {
        return epochOf(state);
    }

    private static int epochOf(long s) {
        return (int) (s >>> 32);
    }

    /**
     * Adds {@code n} units of pending work (jobs do this themselves when submitted with the counter).
     *
     * @param n the units to add, from 0 to {@link Integer#MAX_VALUE}
     * @throws IllegalStateException if the value would exceed {@link Integer#MAX_VALUE}; the counter is
     *     then left exactly as it was (value and add-epoch), and no other thread saw it change
     * @throws IllegalArgumentException if {@code n} is negative or above {@link Integer#MAX_VALUE}
     */
    public void add(long n) {
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Counter.add(" + n + "): n must be between 0 and "
                    + Integer.MAX_VALUE + "; use decrement() to go down");
        }
        // CAS loop, checked before it writes: a rejected add leaves value and epoch as they were, so no
        // reader ever sees an overflowed (negative) low word. A successful CAS is a full fence.
        long s = state;
        for (;;) {
            if ((int) s > Integer.MAX_VALUE - n) {
                throw new IllegalStateException("counter '" + name() + "' would exceed " + Integer.MAX_VALUE
                        + " pending units (it holds " + (int) s + ", add(" + n + ") refused; nothing changed)");
            }
            long witness = (long) STATE.compareAndExchange(this, s, s + (1L << 32) + n);
            if (witness == s) {
                int epoch = epochOf(s) + 1;
                if ((epoch & (EPOCH_AGING_PERIOD - 1)) == 0 && waiters != null) {
                    ageWaiters(epoch);
                }
                return;
            }
            s = witness;
        }
    }

    // A waiter's epoch is compared wrap-safely (wakeReached), which holds only while fewer than 2^31 adds
    // separate it from a decrement: a waiter on a busy counter that never drains (an "in flight" count)
    // crossed that after 2^31 adds and was never woken again. So the add that makes the epoch a multiple
    // of EPOCH_AGING_PERIOD (each multiple is reached by exactly one add) moves every waiting node older
    // than MAX_WAITER_AGE forward to MAX_WAITER_AGE: its distance stays below 2^29 + 2^28 < 2^31.
    static final int EPOCH_AGING_PERIOD = 1 << 28;
    static final int MAX_WAITER_AGE = 1 << 29;

    /**
     * Moves waiting nodes whose add-epoch is more than {@link #MAX_WAITER_AGE} behind {@code epoch} (this
     * add's) forward to that age. Only ever forward, so no node becomes fireable by a decrement that
     * already skipped it. A decrement that ran before this add and has not walked yet may now skip a node
     * it would have fired; the value went up since (this add), so a later decrement fires it, unless that
     * decrement stayed suspended between its CAS and its walk through 2^29 adds of this counter.
     */
    private void ageWaiters(int epoch) {
        for (WaitNode n = waiters; n != null; n = n.next) {
            if (n.isWaiting() && epoch - n.epoch > MAX_WAITER_AGE) {
                n.epoch = epoch - MAX_WAITER_AGE;
            }
        }
    }

    /** Marks one unit of work done. Use it for work you track yourself; jobs decrement by themselves. */
    public void decrement() {
        decrement(1);
    }

    /**
     * Marks {@code n} units done and wakes every waiter whose target is now reached.
     *
     * @param n the units done, from 0 to {@link Integer#MAX_VALUE}
     * @throws IllegalStateException if that would take the value below zero. The counter is then left
     *     exactly as it was, and no other thread saw it change: a refused decrement never makes a
     *     concurrent legitimate decrement fail, and never lets a waiter return early
     * @throws IllegalArgumentException if {@code n} is negative or above {@link Integer#MAX_VALUE}
     */
    public void decrement(long n) {
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Counter.decrement(" + n + "): n must be between 0 and "
                    + Integer.MAX_VALUE);
        }
        // CAS loop, checked before it writes: a rejected decrement never changes the state, so neither a
        // racing decrement nor a waiter sees a value below the true one. The successful CAS is a full
        // fence: it is ordered with a waiter's CAS-push of its node (see CounterWait). value >= n, so
        // s - n never borrows from the epoch bits.
        long old = state;
        for (;;) {
            if ((int) old < n) {
                throw new IllegalStateException("counter '" + name() + "' decremented below zero (to "
                        + ((int) old - n)
                        + "; refused, the value stays " + (int) old + "): it had fewer add()s or jobs than "
                        + "decrements. A job submitted with a counter decrements it by itself; do not "
                        + "decrement for it as well.");
            }
            long witness = (long) STATE.compareAndExchange(this, old, old - n);
            if (witness == old) {
                break;
            }
            old = witness;
        }
        long now = old - n;
        int v = (int) now;
        if (waiters != null && v <= maxWaitTarget) {
            wakeReached(v, epochOf(now));
        }
    }

    /**
     * Waits until the value is zero. See the class comment for fibers versus plain threads. Waits are not
     * interruptible: an interrupt does not end one, and the thread's interrupt status is set again when
     * it returns (use {@link JobGroup#cancel()} or a timeout to stop waiting).
     */
    public void await() {
        await(0);
    }

    /**
     * Waits until the value is at or below {@code target}.
     *
     * @param target the value to wait for; 0 or more
     * @throws JobFailedException if a job of this counter failed
     * @throws JobCancelledException if the waiting job is cancelled while it waits, or was cancelled and
     *     some of this counter's jobs were cancelled (before they started, or stopped midway for it), in
     *     this batch or an earlier one: a counter keeps that mark for its life
     * @throws IllegalArgumentException if {@code target} is negative
     */
    public void await(long target) {
        checkTarget(target);
        if (pending() > target) {
            CounterWait.await(this, target, -1L);
        }
        throwIfFailed();
        throwIfCancelledWaiterMissedWork();
    }

    /**
     * A cancelled job whose wait found the value reached, while some of this counter's jobs were cancelled
     * before they started (its group's cancel skipped the job's own fan-out), throws instead of returning
     * as if that work had run. Without this the outcome was a race: the same wait threw
     * {@link JobCancelledException} when it had to park and returned normally when the skipped jobs had
     * already been counted down, so a cancelled level job summed half its {@code parallelFor} and
     * returned it as its result (a probe: 33 of 200 cancelled rounds). {@code runAndWait}, the blocking
     * {@code parallelFor} and {@code join} of a cancelled handle already throw. A thread that is not a
     * cancelled job (the game loop waiting on a frame counter) still returns: counters count cancelled
     * jobs as ended. {@code skippedJobs} is a plain read made after the volatile read of the value that saw
     * it reached, which follows the skipping canceller's write (field comment); {@code Jobs.isCancelled}
     * is read only when it is set.
     */
    private void throwIfCancelledWaiterMissedWork() {
        if (skippedJobs && Jobs.isCancelled()) {
            throw new JobCancelledException("job '" + Jobs.currentJobName() + "' was cancelled, and counter '"
                    + name() + "' has counted a cancelled job (cancelled before it started, or stopped midway; in"
                    + " this batch or an earlier one: a counter keeps that mark for its life), so what it waited"
                    + " for may not all have run; a cancelled job should stop (check Jobs.isCancelled()). Use a new"
                    + " counter per batch to have only this batch's cancellations count");
        }
    }

    /**
     * Waits at most {@code timeout} for the value to reach zero. On the bound main thread it runs queued
     * main-thread jobs meanwhile, one at a time and none once the timeout has passed (so it overruns by the
     * job in hand at most; a zero timeout runs none).
     *
     * @param timeout how long to wait at most; zero or negative checks once without waiting
     * @return true if it did, false on timeout
     * @throws JobFailedException if the value reached zero and a job of this counter failed
     */
    public boolean await(Duration timeout) {
        return await(0, timeout);
    }

    /**
     * Waits at most {@code timeout} for the value to reach {@code target}; false on timeout.
     *
     * @param target the value to wait for; 0 or more
     * @param timeout how long to wait at most; zero or negative checks once without waiting
     * @return true if the value reached {@code target}, false on timeout
     * @throws JobFailedException if the value reached {@code target} and a job of this counter failed
     * @throws JobCancelledException if the waiting job is cancelled while it waits, or was cancelled and
     *     some of this counter's jobs were cancelled (before they started, or stopped midway for it), in
     *     this batch or an earlier one: a counter keeps that mark for its life
     * @throws IllegalArgumentException if {@code target} is negative
     */
    public boolean await(long target, Duration timeout) {
        checkTarget(target);
        checkTimeout(timeout);
        long nanos = Math.max(0L, Timeouts.saturatedNanos(timeout));
        boolean reached = pending() <= target || CounterWait.await(this, target, nanos);
        if (reached) {
            throwIfFailed();
            throwIfCancelledWaiterMissedWork();
        }
        return reached;
    }

    static void checkTimeout(Duration timeout) {
        if (timeout == null) {
            throw new NullPointerException("timeout is null: pass how long to wait at most, e.g. "
                    + "Duration.ofSeconds(5), or call the method without a timeout to wait until done");
        }
    }

    private void checkTarget(long target) {
        if (target < 0) {
            throw new IllegalArgumentException("await(" + target + ") on counter '" + name() + "' would wait "
                    + "forever: a counter never goes below zero; wait for a target >= 0");
        }
    }

    /**
     * The first failure of a job of this counter, or null.
     *
     * @return the first failure recorded, or null if no job of this counter failed
     */
    public JobFailedException failure() {
        return failure;
    }

    /** Forgets recorded failures, so the counter can be reused after they were handled. */
    public void clearFailure() {
        failure = null;
    }

    /** Throws the recorded failure, if any (as a fresh exception whose cause is the job's). */
    public void throwIfFailed() {
        JobFailedException f = failure;
        if (f != null) {
            JobFailedException thrown = new JobFailedException(f.jobName(), f.getCause());
            thrown.addOtherFailuresOf(f);
            throw thrown;
        }
    }

    @Override
    public String toString() {
        return "Counter[" + name() + " = " + pending() + "]";
    }

    /** jcstress: pushes a node and abandons it, as a timed-out wait does. */
    void pushTimedOutForTests() {
        WaitNode n = new WaitNode(Thread.currentThread(), 0, this, epochOf(state), null);
        push(n);
        n.abandon();
    }

    /** jcstress: {@link #unlinkDeadBelow} from the head now. */
    void sweepForTests() {
        WaitNode h = waiters;
        if (h != null) {
            unlinkDeadBelow(h);
        }
    }

    /** Nodes on the waiter stack now, live and dead (tests; walks it, racy). */
    int waiterNodes() {
        int n = 0;
        for (WaitNode w = waiters; w != null; w = w.next) {
            n++;
        }
        return n;
    }

    /**
     * Runs {@code action} once when the value is zero: at once, on this thread, if it is zero now; else on
     * the thread whose decrement takes it there. Nothing parks. The same register-then-re-check protocol
     * as {@link CounterWait#await}: push, then re-read the value; a decrementer that went first is seen
     * by the re-read, one that goes after sees the node, and the node's fire CAS lets only one of them run it.
     * ({@code maxWaitTarget} is never below zero, so every decrement to zero walks the stack.)
     * Returns the node, for {@link WaitNode#abandon()} if the action is no longer wanted (its job was
     * cancelled), or null if the action ran here.
     */
    WaitNode whenZero(Runnable action) {
        if ((int) state == 0) {
            action.run();
            return null;
        }
        WaitNode node = new WaitNode(action, 0, this, epochOf(state));
        push(node);
        if ((int) state == 0) {
            node.fire();
        }
        return node;
    }

    /** A job of this counter ended (ran, failed or was cancelled): record the failure, then decrement. */
    void jobEnded(JobNode job, Throwable cause) {
        try {
            if (cause != null) {
                recordFailure(JobFailedException.recorded(job, cause), cause);   // never fails for lack of memory
            }
        } finally {
            decrement(1);                           // whatever recording the failure met: waiters must wake
        }
    }

    void recordFailure(JobFailedException f, Throwable cause) {
        if (!FAILURE.compareAndSet(this, null, f)) {
            JobFailedException first = failure;
            if (first != null) {
                first.addOtherFailure(cause);   // synchronized, as addSuppressed is: rare path
            }
        }
    }

    /** The add-epoch now (the high word of {@code state}), for a waiter's node: which adds came before it. */
    int epochNow() {
        return epochOf(state);
    }

    /**
     * Registers a waiter's node (CounterWait step 1): raises {@code maxWaitTarget} to its target first,
     * so a decrementer that sees the node also walks for it, then CAS-pushes it.
     */
    void register(WaitNode node, long target) {
        raiseMaxWaitTarget(target);
        push(node);
    }

    private void raiseMaxWaitTarget(long target) {
        if (target > 0) {
            watch();                         // before the push: a worker that holds back reads it (§13)
        }
        long m;
        while ((m = maxWaitTarget) < target && !MAX_WAIT_TARGET.compareAndSet(this, m, target)) {
            Thread.onSpinWait();
        }
    }

    private void push(WaitNode node) {
        for (;;) {
            WaitNode h = waiters;
            WaitNode live = h;
            while (live != null && !live.isWaiting()) {  // drop dead nodes (fired, timed out) at the head
                live = live.next;
            }
            node.next = live;
            if (WAITERS.compareAndSet(this, h, node)) {
                if (--pushesBeforeSweep <= 0) {          // racy on purpose: it only spaces the sweeps
                    pushesBeforeSweep = Math.max(MIN_PUSHES_BETWEEN_SWEEPS, unlinkDeadBelow(node));
                }
                return;
            }
        }
    }

    // A sweep walks the whole stack, so one comes at most every max(16, length) pushes: O(1) per push,
    // amortized, even with 100,000 continuations on one counter (Prerequisites).
    private static final int MIN_PUSHES_BETWEEN_SWEEPS = 16;

    /**
     * Unlinks every dead node (fired, cancelled, timed out) below live-or-new node {@code from}; returns
     * the nodes left. The head skip in {@link #push} drops only the dead run at the top, so a wait that
     * timed out under a newer live waiter stayed for the counter's life: progress polling from 4 jobs
     * left ~57 B a poll and made every decrement walk them all. Safe beside pushers, other sweepers and
     * decrementers' walks: a node leaves WAITING only once, so a node seen dead stays dead, and a sweeper
     * only ever skips nodes it saw dead. Links are only shortened below the head (pushes add at the head
     * alone), so no live node is ever skipped; two sweepers racing may put back a dead node the other
     * skipped, which the next sweep drops. A walker standing on an unlinked node still follows its
     * {@code next} back into the stack.
     */
    private static int unlinkDeadBelow(WaitNode from) {
        int kept = 1;
        for (WaitNode pred = from; ; kept++) {
            WaitNode first = pred.next;
            WaitNode succ = first;
            while (succ != null && !succ.isWaiting()) {
                succ = succ.next;
            }
            if (succ != first) {
                pred.next = succ;
            }
            if (succ == null) {
                return kept;
            }
            pred = succ;
        }
    }

    /**
     * Decrementer side: walks the stack in place and fires every waiting node whose target the value
     * {@code v} reached. Live nodes are never detached, so a concurrent decrementer always sees them too;
     * firing is a CAS, so each waiter is woken once. Dead nodes are dropped by pushes ({@link #push}).
     */
    private void wakeReached(int v, int epoch) {
        for (WaitNode n = waiters; n != null; n = n.next) {
            // epoch - n.epoch >= 0 (wrap-safe): the node registered before this decrement, or after it
            // with no add in between; a node registered after a later add waits for a later decrement.
            if (v <= n.target && epoch - n.epoch >= 0 && n.isWaiting()) {
                n.fire();
            }
        }
    }
}
