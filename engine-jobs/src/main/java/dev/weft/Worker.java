package dev.weft;

import dev.weft.internal.SpareSlot;
import dev.weft.internal.WorkStealingDeque;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jctools.queues.varhandle.MpscVarHandleArrayQueue;

/**
 * One worker: a platform thread, its deques (one for new jobs and one for ready fibers per priority),
 * its idle fibers and recycled job nodes, and its statistics.
 *
 * <p>Ownership: everything here except the deques' steal side, {@link #parkState} and the statistics
 * reads is touched only by this worker's thread — the carrier loop or a fiber mounted on it, which is the
 * same OS thread, one at a time — so none of it is synchronized.
 */
final class Worker extends WorkerLayout.PadAfterParkState {
    static final int RUNNING = 0;
    static final int PARKED = 1;
    static final int SIGNALLED = 2;

    private static final VarHandle PARK_STATE;
    private static final VarHandle LONG_CELL = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            PARK_STATE = MethodHandles.lookup().findVarHandle(WorkerLayout.ParkState.class, "parkState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Statistic slots, written by the owner with opaque stores (no fence), read by stats() with opaque loads.
    static final int JOBS_RUN = 0;
    static final int STEAL_ATTEMPTS = 1;
    static final int STEALS = 2;
    static final int WAITS = 3;
    static final int IDLE_PARKS = 4;
    static final int IDLE_NANOS = 5;
    static final int FIBERS_CREATED = 6;
    static final int JOBS_CANCELLED = 7;
    static final int CHECKPOINT_YIELDS = 8;
    static final int WAITS_ENDED = 9;       // FiberPool.parked(): WAITS - WAITS_ENDED summed over workers
    static final int STAT_COUNT = 10;

    static final int MAX_FREE_NODES = 1 << 16;           // enough for a frame of in-flight jobs
    private static final int RETURN_CAPACITY = 1 << 16;

    final Scheduler scheduler;
    final int index;
    final WorkerThread thread;
    final JobDeque[] jobs;                       // new jobs by priority: owner push/pop, thieves steal
    final WorkStealingDeque<Object>[] ready;     // ready fibers by priority
    final FreeNodes freeJobs = new FreeNodes(MAX_FREE_NODES);     // recycled PooledJobs made here
    final FreeNodes freeRanges = new FreeNodes(MAX_FREE_NODES);   // recycled RangeNodes made here
    // Nodes made here but finished by a thief come home through these (thieves offer, owner drains).
    final MpscVarHandleArrayQueue<JobNode> returnedJobs = new MpscVarHandleArrayQueue<>(RETURN_CAPACITY);
    final MpscVarHandleArrayQueue<JobNode> returnedRanges = new MpscVarHandleArrayQueue<>(RETURN_CAPACITY);
    Fiber mounted;                               // the fiber this carrier runs right now, or null
    // One idle fiber this worker keeps for its next job start: filled only by this carrier, after the
    // fiber unmounted; taken by it, or by a worker that may make no new fiber (FiberPool, SpareSlot).
    final SpareSlot<Fiber> spareFiber = new SpareSlot<>();
    Object next;                                 // a fiber to mount next (a foreign virtual thread never
                                                 // comes here: Fiber.execute forwards it to the JVM's scheduler)
    int pollCount;                               // for the starvation bound
    private int rng;                             // xorshift state for victim selection
    long exhaustedSinceNanos;                    // bounded pool: when the pool last ran dry, or 0
    java.util.SplittableRandom seededChoices;    // deterministic mode: which end of a deque to take
    boolean retryDryPool;                        // bounded pool: the next poll may take a new job again
    // The ready-fiber grace (WorkPicker#stealReady), thief side, owner-only and plain: the lone ready
    // fiber this worker is leaving to its awake owner (that deque and its top index name it exactly),
    // until when, and whether the last scan left one (then the idle loop waits instead of re-scanning).
    WorkStealingDeque<Object> graceDeque;
    long graceTop;
    long graceEndNanos;
    boolean graceWaiting;
    // PriorityCaps slots (bit p: a slot of capped priority p), owner-only, plain. capHeld: for the mounted
    // fiber's stack and the job in hand; capTaken: for a ready fiber in hand (next), moved to capHeld when
    // it is mounted; capOverflow: the subset of capHeld taken over the cap (work conservation).
    int capHeld;
    int capTaken;
    int capOverflow;
    private final long[] stats = new long[STAT_COUNT];
    // Held-back decrements (SYNCHRONIZATION.md §13): jobs of heldCounter that ended on this worker, not
    // yet subtracted from it. Owner-only, plain. The counter's value stays above the truth by heldEnded
    // until flushHeld, so "zero means every job ended" still holds; flushHeld runs before this worker
    // does anything that could make a waiter wait for it (see holdEnded).
    private Counter heldCounter;
    private int heldEnded;
    private boolean heldWatchChecked;            // heldCounter's watched flag was read (false) for this batch,
    private int heldWatchEpoch;                  // when Counter.watchEpoch() was this
    static final int MAX_HELD = 64;              // a flush at least every this many held decrements
    // volatile int parkState (RUNNING/PARKED/SIGNALLED; see WorkerParking) is declared in WorkerLayout,
    // between 128-byte pads, so the fields above, which this worker writes all the time, are not on the
    // line wakers CAS.

    @SuppressWarnings("unchecked")
    Worker(Scheduler scheduler, int index, String name, long stackSizeBytes) {
        this.scheduler = scheduler;
        this.index = index;
        this.thread = new WorkerThread(this, name, stackSizeBytes);   // not started yet: see Scheduler
        this.jobs = new JobDeque[Priority.COUNT];
        this.ready = (WorkStealingDeque<Object>[]) new WorkStealingDeque<?>[Priority.COUNT];
        for (int p = 0; p < Priority.COUNT; p++) {
            jobs[p] = new JobDeque(256, thread);
            ready[p] = new WorkStealingDeque<>(64, thread);
        }
        this.rng = 0x9E3779B9 * (index + 1);
    }

    /**
     * For assertions (on under tests) in every owner-only method: the current thread is this worker's
     * carrier or a fiber mounted on it. A wrong-thread call (say, a fiber that resumed on another worker
     * still using the old one) fails loudly instead of corrupting a non-thread-safe structure.
     */
    boolean onOwnerThread(String what) {
        Thread carrier = dev.weft.internal.FiberSupport.currentCarrier();
        if (carrier != thread) {
            throw new AssertionError(what + " of " + thread.getName() + " is owner-only, but was called on "
                    + carrier + " (current thread " + Thread.currentThread() + ")");
        }
        return true;
    }

    /** Owner: a recycled node from {@code free}, refilled from {@code returned}; null if none. */
    JobNode takeFree(FreeNodes free, MpscVarHandleArrayQueue<JobNode> returned) {
        assert onOwnerThread("the free list");
        JobNode n = free.pop();
        if (n == null && returned.drain(free.pushAll, 256) > 0) {
            n = free.pop();
        }
        return n;
    }

    /** Any worker: gives a finished node back to the worker that made it (no allocation next time). */
    void giveBack(JobNode node, Worker home, boolean range) {
        assert onOwnerThread("giveBack");
        if (home == this) {
            (range ? freeRanges : freeJobs).push(node);    // full: the node is dropped (garbage)
        } else {
            // Home, one CAS on a line only thieves write. Measured (EmptyJobs from a job, 2 forks each):
            // a thief dropping the node instead was 165 against 193 ns/job but made the submitter
            // allocate 29 B/job; keeping it on the thief's list was 176 ns/job and 28 B/job.
            (range ? home.returnedRanges : home.returnedJobs).relaxedOffer(node);   // full: drop it
        }
    }

    // Finished nodes of outside threads, on their way home in one batch (OutsideNodes). Owner-only.
    private PooledJob[] outsideBatch = new PooledJob[OutsideNodes.BATCH];
    private int outsideBatchSize;
    private OutsideNodes outsideBatchHome;

    /** Gives a finished node made by an outside thread back to it, a batch at a time (OutsideNodes). */
    void giveBackOutside(PooledJob node) {
        assert onOwnerThread("giveBackOutside");
        OutsideNodes home = node.outsideHome;
        if (home != outsideBatchHome) {
            sendOutsideBatch();                  // another thread's nodes: this batch goes home as it is
            outsideBatchHome = home;
        }
        outsideBatch[outsideBatchSize++] = node;
        if (outsideBatchSize == OutsideNodes.BATCH) {
            sendOutsideBatch();
        }
    }

    private void sendOutsideBatch() {
        if (outsideBatchSize > 0) {
            PooledJob[] fresh;
            try {
                fresh = new PooledJob[OutsideNodes.BATCH];   // first: the batch sent is the other thread's
            } catch (OutOfMemoryError noRoom) {
                java.util.Arrays.fill(outsideBatch, null);   // the heap is exhausted: drop these nodes (garbage)
                outsideBatchSize = 0;
                outsideBatchHome = null;
                return;
            }
            outsideBatchHome.returned.relaxedOffer(outsideBatch);   // full: the batch is dropped (garbage)
            outsideBatch = fresh;
            outsideBatchSize = 0;
        }
        outsideBatchHome = null;
    }

    /** The worker whose carrier runs the current thread, if it belongs to {@code s}; else null. */
    static Worker current(Scheduler s) {
        Thread carrier = dev.weft.internal.FiberSupport.currentCarrier();
        if (carrier instanceof WorkerThread wt && wt.worker.scheduler == s) {
            return wt.worker;
        }
        return null;
    }

    int nextRandom() {
        int x = rng;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        rng = x;
        return x & Integer.MAX_VALUE;
    }

    void count(int slot) {
        assert onOwnerThread("statistics");
        LONG_CELL.setOpaque(stats, slot, (long) LONG_CELL.getOpaque(stats, slot) + 1);
    }

    void add(int slot, long delta) {
        assert onOwnerThread("statistics");
        LONG_CELL.setOpaque(stats, slot, (long) LONG_CELL.getOpaque(stats, slot) + delta);
    }

    long stat(int slot) {
        return (long) LONG_CELL.getOpaque(stats, slot);
    }

    boolean casParkState(int expect, int update) {
        return PARK_STATE.compareAndSet(this, expect, update);
    }

    /**
     * A job of {@code c} ended on this worker without failure: hold its decrement back, to subtract it
     * with others in one CAS (a counter shared by workers otherwise moves its cache line between them
     * once per job). Another counter's job ending flushes the one held. The flush points, each on this
     * worker's thread: before a top-level job of another counter starts ({@link #beforeJob}), at the end
     * of a fiber's help before a wait, when a fiber unmounts (parks, yields or ends: {@link #mount}),
     * before the fiber loop or the carrier goes idle, and every {@value #MAX_HELD} held decrements. Of a
     * {@code Counter.watched} counter (its values are read between start and zero) at most one decrement
     * is held, until this worker's next job ends or starts.
     */
    void holdEnded(Counter c) {
        assert onOwnerThread("holdEnded");
        if (heldCounter != c) {
            flushHeld();
            heldCounter = c;
        }
        int n = ++heldEnded;
        if (n >= MAX_HELD || (n >= 2 && heldCounterWatched())) {
            flushHeld();
        }
    }

    /**
     * Is the held counter watched (someone reads its values between start and zero, Counter.watched)? Then
     * it must not stay above the truth: the caller flushes. Asked only once this worker would hold a second
     * decrement, or start another job, not at the first: a thread outside submitting one job at a time
     * finds this worker idle after each, and the idle flush comes first, so it never pays a read here. The
     * counter's own flag is read once per batch; after that only the JVM-wide epoch, whose line stays in
     * every core's cache (the counter's is its submitter's, whose adds write it: a read of it per job cost
     * 30% in EmptyJobs from a job). The epoch is read before the flag (both volatile): Counter.watch says
     * why no watch is missed.
     */
    private boolean heldCounterWatched() {
        if (!heldWatchChecked) {
            heldWatchChecked = true;
            heldWatchEpoch = Counter.watchEpoch();
            return heldCounter.watched;
        }
        return Counter.watchEpoch() != heldWatchEpoch;
    }

    /**
     * A new job of {@code c} submitted on this worker: counted by taking back one decrement this worker
     * holds for {@code c}, if it holds one, instead of an {@code add} CAS. The value stays as it is: it
     * counted that unit as an unended job until our flush, and now it counts the new job (§13, "Taking a
     * held decrement back"). False: the caller adds as usual.
     */
    boolean countFromHeld(Counter c) {
        assert onOwnerThread("countFromHeld");
        if (heldCounter == c && heldEnded > 0) {
            heldEnded--;
            return true;
        }
        return false;
    }

    /** Decrements of {@code c} this worker holds back now (0 for any other counter). */
    int heldFor(Counter c) {
        return heldCounter == c ? heldEnded : 0;
    }

    /** Before a top-level job of {@code counter} starts here: a held counter of another is flushed. */
    void beforeJob(Counter counter) {
        if (heldCounter != null && (heldCounter != counter || heldCounterWatched())) {
            flushHeld();
        }
    }

    /** Subtracts the held decrements (one CAS, which wakes whoever they let through). */
    void flushHeld() {
        Counter c = heldCounter;
        if (c == null) {
            return;
        }
        int n = heldEnded;
        heldCounter = null;
        heldEnded = 0;
        heldWatchChecked = false;
        try {
            c.decrement(n);
        } catch (IllegalStateException misuse) {
            // The user decremented for a job as well (refused whole: nothing changed). Subtract what is
            // still there one by one, as the jobs would have done, each refusal reported like theirs.
            for (int i = 0; i < n; i++) {
                try {
                    c.decrement(1);
                } catch (IllegalStateException refused) {
                    // No job to name (held decrements keep only their count): name the counter as such.
                    scheduler.uncaughtFailureHandler.accept("a job counted by counter '" + c.name() + "'", refused);
                }
            }
        }
    }

    /** Pops the bottom job of any priority if it belongs to {@code counter} (a dependency of a wait). */
    JobNode popLocalJobOf(Counter counter, Fiber helper) {
        assert onOwnerThread("popLocalJobOf");
        for (int p = 0; p < Priority.COUNT; p++) {
            // A plain read (a thief may have it already, even recycled as another job): popIf's CAS decides.
            JobNode j = jobs[p].atBottom();
            if (j != null && j.counter == counter && helper.takeNestedSlot(p)) {   // a capped one needs a slot
                if (jobs[p].popIf(j) != null) {
                    return j;
                }
                helper.undoNestedSlot(p);         // taken by a thief: look at the next priority
            }
        }
        return null;
    }

    volatile int pinnedCpu = -1;                 // the CPU this worker's thread is pinned to, or -1

    /** The carrier loop: mount ready fibers, start jobs on pooled fibers, idle when there is nothing. */
    void runCarrierLoop() {
        scheduler.maybePin(this);
        try {
            for (;;) {
                Object item = next;
                next = null;
                try {
                    if (item == null) {
                        if (scheduler.isTerminated()) {
                            break;
                        }
                        item = scheduler.picker.pollNext(this);
                        if (item == null) {
                            flushHeld();                  // nothing held back while this worker sleeps
                            scheduler.idle(this);
                            continue;
                        }
                        if (item instanceof JobNode job) {
                            scheduler.fibers.startOnFiber(this, job);   // sets next to the fiber, or handles a dry pool
                            continue;
                        }
                    }
                    mount((Fiber) item);                      // ready queues and next hold fibers only
                } catch (Throwable t) {
                    for (Throwable e = t;;) {
                        try {
                            carrierLoopThrew(item, e);   // throws nothing itself
                            break;
                        } catch (Throwable again) {
                            e = again;              // its way in threw (a deoptimization short of memory): again
                        }
                    }
                }
            }
        } finally {
            flushHeld();
            scheduler.fibers.retireIdleFibers(this);
            scheduler.workerExited(this);
        }
    }

    /**
     * An Error of Weft's own code in the carrier loop (the heap exhausted: see HeapExhaustion): the worker
     * must not die with its deques. A job in hand that could not start on a fiber (not handed to one)
     * fails with it, and its counter completes; a fiber's mount cleans up in finally blocks ({@link #mount}).
     */
    private void carrierLoopThrew(Object item, Throwable t) {
        try {
            if (item instanceof JobNode job && job.state() == JobNode.NEW
                    && !(next instanceof Fiber f && f.firstJob == job)) {   // not handed over to a fiber
                HeapExhaustion.startFailed(scheduler, this, job, t);
                return;
            }
        } catch (Throwable again) {
            // startFailed throws nothing; the checks above cannot either, short of another deoptimization
        }
        HeapExhaustion.workerWentOn(this, t);
    }

    private void mount(Fiber f) {
        int taken = capTaken;
        if (taken != 0) {
            capHeld |= taken;                    // the slots the picker took for this ready fiber's stack
            capTaken = 0;
        }
        if (!f.claimMount(this) && !claimAfterItsCarrier(f, taken)) {
            return;                              // a duplicate wake, dropped, or f queued again
        }
        mounted = f;                             // f.carrier is this now: Fiber.worker() reads it
        try {
            f.continuation().run();
        } finally {
            mounted = null;
            try {
                flushHeld();                     // the fiber parked, yielded or ended: nothing held meanwhile
                if (capHeld != 0) {
                    // The fiber parked (or ended) holding capped slots: a parked fiber is nobody's. Our own
                    // record, not the fiber's: it may already run on another worker, which took its own.
                    scheduler.caps.releaseAll(this, capHeld);
                }
            } finally {                          // even after an Error above: f must stay mountable
                boolean parkedIdle = f.poolAfterUnmount;
                f.poolAfterUnmount = false;
                f.releaseMount();                // from here on another carrier may mount f
                if (parkedIdle) {                // only now may another worker take it (and mount it at once)
                    scheduler.fibers.pool(this, f);
                }
            }
        }
    }

    // Spins of claimAfterItsCarrier before it queues the fiber again: the other carrier's tail after an
    // unmount (flushHeld, the caps, two stores) is well under this unless its thread was preempted.
    private static final int CLAIM_SPINS = 256;

    /**
     * Mounting {@code f} found another carrier's claim on it (Fiber.carrier). If f is mounted there (the
     * JDK's own carrier field), this entry is a duplicate of a wake that carrier already consumed, and
     * running it would be a no-op in the JDK: drop it. Otherwise that carrier is between the fiber's unmount
     * and the end of its bookkeeping, and this may be the fiber's one real wake (a fiber that yields is
     * queued from inside its old carrier's mount, and another worker can take it at once): wait for the
     * claim a little, then queue f again so that the wake is never lost.
     *
     * @return true if the claim is ours now and f is to be mounted
     */
    private boolean claimAfterItsCarrier(Fiber f, int capsTakenForF) {
        boolean duplicate = false;
        for (int spin = 0; spin < CLAIM_SPINS && !(duplicate = dev.weft.internal.FiberSupport.isMounted(f.thread));
                spin++) {
            Thread.onSpinWait();
            if (f.claimMount(this)) {
                return true;
            }
        }
        if (capsTakenForF != 0) {
            scheduler.caps.releaseAll(this, capsTakenForF);   // taken again when f is picked again
        }
        if (duplicate) {
            scheduler.fibers.duplicateWakes.incrementAndGet();
        } else {
            scheduler.fiberReady(f);
        }
        return false;
    }

    /**
     * On this worker's own thread: pins it to the allowed CPU number (index mod allowed CPUs) of the mask it
     * inherited from the thread that built the system (taskset, a container's cpuset), not to CPU
     * {@code index}: Linux lets a thread widen its own mask, so CPU {@code index} escaped a taskset (and
     * is refused outside a cpuset). Says once why not, if it cannot.
     */
    void pinToCpu(String systemName) {
        int[] allowed = dev.weft.internal.CpuAffinity.allowedCpusOfCurrentThread();
        int cpu = allowed.length > 0 && allowed[0] >= 0
                ? allowed[index % allowed.length]
                : index % Runtime.getRuntime().availableProcessors();   // mask unknown: the old guess
        java.util.Optional<String> failure = dev.weft.internal.CpuAffinity.pinCurrentThread(cpu);
        if (failure.isEmpty()) {
            pinnedCpu = cpu;
        } else if (index == 0) {
            System.err.println("weft: workers of '" + systemName + "' run unpinned: " + failure.get());
        }
    }
}
