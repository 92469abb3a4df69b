package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

// Class-hierarchy padding (JCTools/Disruptor style): HotSpot lays out a superclass's fields before a
// subclass's and reorders fields only within one class, so each hot field sits between two pad classes
// of 128 bytes (two cache lines: the adjacent-line prefetcher pairs lines).

abstract class WorkerParkingPadHead {
    @SuppressWarnings("unused") long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

abstract class WorkerParkingSleepers extends WorkerParkingPadHead {
    /** Low 32 bits: workers registered as asleep. High 32: how many registrations ended (the epoch). */
    volatile long sleepers;
    // The worker that registered as asleep last: a hint for outside wakers (signalInjectedWork), stored
    // opaque by each worker just before its register XADD on this line, which that XADD takes anyway. Any
    // value is safe: the waker still CASes a PARKED state and visits every worker.
    int latestSleeper;
}

abstract class WorkerParkingPadMid extends WorkerParkingSleepers {
    @SuppressWarnings("unused") long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

abstract class WorkerParkingCursor extends WorkerParkingPadMid {
    volatile long wakeCursor;            // where the next wakeOne starts looking; getAndAdd only
}

abstract class WorkerParkingPadTail extends WorkerParkingCursor {
    @SuppressWarnings("unused") long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

/**
 * Workers going to sleep, being woken, and the termination decision: the one owner of
 * {@link #sleepers}, the wake cursor, the busy-fiber balances and {@link #externalSubmitters}.
 *
 * <p>Parking is three steps, each its own method so that jcstress can race them one by one:
 * {@link #register} (PARKED, then XADD {@code sleepers}: a full fence), {@link #decide} (re-scan every
 * queue; the termination decision), then park until SIGNALLED, and {@link #leave}. A producer that made
 * a queue go from empty to non-empty calls {@link #signalWork}: full fence, read {@code sleepers}, and
 * only if someone sleeps CAS one PARKED worker to SIGNALLED and unpark it. SYNCHRONIZATION.md §5 has
 * the arguments.
 *
 * <p>The accessors at the end (a worker's park state, unpark, the queues, the run state) are the only
 * methods a subclass may override: production has none (the JIT then binds them statically); the
 * jcstress model ({@code dev.weft.ParkingModel}) keeps park states in plain fields and its "queues" in
 * one flag, and runs the real protocol methods, which are final.
 */
class WorkerParking extends WorkerParkingPadTail {
    /** What {@link #decide} found. */
    static final int LEAVE = 0;          // work is visible (or the system terminated): go and look
    static final int PARK = 1;           // park until signalled
    static final int TERMINATE = 2;      // this worker just terminated the system
    static final int PARK_BRIEFLY = 3;   // closing, all asleep, an outside submission in flight: re-check soon

    /** Longest one idle call waits out a ready fiber's grace before scanning again. */
    private static final long GRACE_WAIT_MAX_NANOS = 20_000L;

    /** How long a worker waits for an outside submission in flight before re-checking termination. */
    private static final long RECHECK_NANOS = 100_000L;

    static final long ONE_ASLEEP = 1L;
    static final long ONE_LEFT = (1L << 32) - 1;   // one fewer asleep, one more in the epoch (high 32 bits)

    private static final VarHandle SLEEPERS;
    private static final VarHandle WAKE_CURSOR;
    private static final VarHandle LATEST_SLEEPER;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SLEEPERS = l.findVarHandle(WorkerParkingSleepers.class, "sleepers", long.class);
            WAKE_CURSOR = l.findVarHandle(WorkerParkingCursor.class, "wakeCursor", long.class);
            LATEST_SLEEPER = l.findVarHandle(WorkerParkingSleepers.class, "latestSleeper", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Scheduler scheduler;   // null in the jcstress model
    private final Worker[] workers;      // null in the jcstress model
    private final int workerCount;
    private final IdleStrategy idleStrategy;
    final CheckpointSignal checkpoints;
    // Fibers out of the idle pool: running, or parked anywhere (a Counter wait, Thread.sleep, a monitor,
    // I/O). Termination requires none, so a job parked outside Weft's own waits is not stranded. Counted
    // per worker, so that no line is written by every worker on each fiber switch (§14): slot
    // (i + 1) * BALANCE_STRIDE is +1 each time worker i's carrier takes a fiber for a job
    // (FiberPool.startOnFiber) and -1 each time a fiber mounted on that carrier parks itself idle. A fiber
    // can start on one worker and idle on another, so a slot may be negative: only the sum means
    // anything, and int wrap-around leaves the sum right. Each slot has one writer (code running on its
    // worker's carrier: the carrier loop or the fiber mounted on it), which stores with release; decide
    // reads every slot after its register XADD, and only trusts the sum when all workers registered after
    // their last store and none left since (§5, "Termination").
    private static final int BALANCE_STRIDE = 32;  // ints: 128 bytes, two lines, between slots and at both ends
    private static final VarHandle BALANCE = MethodHandles.arrayElementVarHandle(int[].class);
    private final int[] fiberBalances;
    // Outside submissions in flight (Scheduler.submit: +1 before reading runState, -1 after the offer).
    final AtomicInteger externalSubmitters = new AtomicInteger();

    WorkerParking(Scheduler scheduler, Worker[] workers, IdleStrategy idleStrategy) {
        this.scheduler = scheduler;
        this.workers = workers;
        this.workerCount = workers.length;
        this.idleStrategy = idleStrategy;
        this.checkpoints = new CheckpointSignal();
        this.fiberBalances = new int[(workerCount + 2) * BALANCE_STRIDE];
    }

    /** The jcstress model: {@code workerCount} workers whose state the subclass keeps. */
    WorkerParking(int workerCount) {
        this.scheduler = null;
        this.workers = null;
        this.workerCount = workerCount;
        this.idleStrategy = null;
        this.checkpoints = new CheckpointSignal();
        this.fiberBalances = new int[(workerCount + 2) * BALANCE_STRIDE];
    }

    // ------------------------------------------------------------------ the idle worker

    /** Worker {@code w} found nothing to do: spin, yield, then park (the idle strategy). */
    final void idle(Worker w) {
        IdleStrategy s = idleStrategy;
        Scheduler sc = scheduler;
        if (w.exhaustedSinceNanos != 0) {
            if (!sc.fibers.anyIdle() && hasVisibleWork()) {
                LockSupport.parkNanos(this, 100_000L);   // a dry bounded pool: poll for freed fibers,
                w.retryDryPool = true;                   // then try once more to start a new job
                return;
            }
            w.exhaustedSinceNanos = 0;                   // a fiber came back, or nothing waits to start
        }
        if (w.graceWaiting) {
            // The scan left a lone ready fiber to its owner (WorkPicker#stealReady): wait out its grace
            // on this core alone. Re-scanning meanwhile would keep pulling the owner's deque lines over,
            // and the owner would pay a transfer for each push and pop (WaitResume: 1.7 µs, not 0.7).
            // At most GRACE_WAIT_MAX_NANOS per call, so that other work is looked at again soon whatever
            // the grace (tests set it long).
            w.graceWaiting = false;
            long t0 = System.nanoTime();
            long end = w.graceEndNanos - t0 < GRACE_WAIT_MAX_NANOS ? w.graceEndNanos : t0 + GRACE_WAIT_MAX_NANOS;
            while (System.nanoTime() - end < 0 && runState() == Scheduler.RUNNING) {
                Thread.onSpinWait();
            }
            return;
        }
        for (int i = 0; i < s.spins() && runState() == Scheduler.RUNNING; i++) {
            if (hasVisibleWork()) {
                return;
            }
            Thread.onSpinWait();
        }
        for (int i = 0; i < s.yields() && runState() == Scheduler.RUNNING; i++) {
            if (hasVisibleWork()) {
                return;
            }
            Thread.yield();
        }
        // Termination is decided by the last worker to park, so once the system is closing every worker
        // parks when idle, even under a strategy that never parks while running (busySpin, yielding):
        // without that, close() would wait forever.
        if (s.parks() || runState() != Scheduler.RUNNING) {
            park(w);
        }
    }

    private void park(Worker w) {
        int i = w.index;
        int decision = decide(register(i));
        if (decision == PARK || decision == PARK_BRIEFLY) {
            long t0 = System.nanoTime();
            w.count(Worker.IDLE_PARKS);
            if (decision == PARK_BRIEFLY) {
                LockSupport.parkNanos(this, RECHECK_NANOS);   // then leave, poll, and decide again
            } else {
                while (parkState(i) == Worker.PARKED) {
                    LockSupport.park(this);  // a spurious return re-checks; only a waker's CAS ends this
                }
            }
            w.add(Worker.IDLE_NANOS, System.nanoTime() - t0);
        }
        leave(i);
    }

    // ------------------------------------------------------------------ the protocol

    /** Step 1: worker {@code i} registers as asleep; returns {@code sleepers} after its XADD. */
    final long register(int i) {
        setParkState(i, Worker.PARKED);          // volatile, before the XADD: a waker that counts us finds it
        LATEST_SLEEPER.setOpaque(this, i);       // a hint only (signalInjectedWork)
        return (long) SLEEPERS.getAndAdd(this, ONE_ASLEEP) + ONE_ASLEEP;   // full fence before the re-scan
    }

    /**
     * Step 2: re-scan every queue and decide; {@code ticket} is what {@link #register} returned. The
     * last worker to register, the system closing, terminates only if nothing changed {@code sleepers}
     * since its own XADD (every registration ends with an epoch bump, so an equal value means no
     * worker left the park meanwhile: none held a job or ran a fiber), no fiber is busy, no outside
     * submission is in flight, and a scan made after reading those finds every queue empty.
     */
    final int decide(long ticket) {
        if (hasVisibleWork()) {
            return LEAVE;
        }
        int rs = runState();
        if (rs == Scheduler.TERMINATED) {
            return LEAVE;
        }
        if (rs == Scheduler.RUNNING || (int) ticket != workerCount || busyFibers() != 0) {
            return PARK;                   // whoever is awake, or the fiber's carrier, parks later and re-checks
        }
        if (externalSubmitters.get() != 0) {
            return PARK_BRIEFLY;           // an outside submitter ends without signalling anyone: poll for it
        }
        if (hasVisibleWork()) {
            return LEAVE;
        }
        if (sleepers != ticket) {
            return PARK;                   // a worker left its park since our XADD: it re-checks when it parks again
        }
        terminate();
        return TERMINATE;
    }

    /** Step 3: worker {@code i} is awake again (signalled, or it found work, or it terminated). */
    final void leave(int i) {
        if (!casParkState(i, Worker.PARKED, Worker.RUNNING)) {
            setParkState(i, Worker.RUNNING);   // SIGNALLED: the failed CAS read the waker's write (acquire)
        }
        // Only the worker itself unregisters, after it stopped parking: "counted asleep" implies "holds
        // nothing, runs nothing". The XADD (a full fence) comes before the worker polls for work.
        SLEEPERS.getAndAdd(this, ONE_LEFT);
    }

    /** Called after publishing work at an empty→non-empty transition. */
    final void signalWork() {
        VarHandle.fullFence();             // StoreLoad: the published element before the read of sleepers
        if ((int) sleepers > 0) {
            wakeOne();
        }
    }

    /**
     * {@link #signalWork()} for a queue of {@code priority}: the same fence also orders the element
     * before the read of the checkpoint mask ({@link CheckpointSignal}), so long jobs of lower priority
     * see it at their next {@link Jobs#checkpoint()}.
     */
    final void signalWork(int priority) {
        signal(priority, false);
    }

    /**
     * {@link #signalWork(int)} for a job published by a thread that is not a worker (an injection): the
     * same fence and reads, but it wakes the worker that went to sleep last, as ForkJoinPool's stack of
     * idle workers does. A thread submitting jobs one at a time then keeps waking the worker that just ran
     * out of work (its caches warm, maybe not yet asleep in the kernel) while the others stay asleep,
     * instead of waking each worker in turn to share its cores (EmptyJobs from the benchmark thread about
     * 20% cheaper, docs/measurements.md). Workers' own pushes keep the round-robin cursor: waking the
     * latest sleeper for those too made ParallelFor on 2 workers 8% slower.
     */
    final void signalInjectedWork(int priority) {
        signal(priority, true);
    }

    private void signal(int priority, boolean latestSleeperFirst) {
        VarHandle.fullFence();             // StoreLoad: the published element before the reads below
        if (priority < Priority.COUNT - 1) {          // nothing is below BACKGROUND to look for it
            checkpoints.noteQueued(priority);
        }
        if ((int) sleepers > 0) {
            if (latestSleeperFirst) {
                wakeFrom((int) LATEST_SLEEPER.getOpaque(this), -1);
            } else {
                wakeOne();
            }
        }
    }

    private void wakeOne() {
        int start = (int) (((long) WAKE_CURSOR.getAndAdd(this, 1L) & Integer.MAX_VALUE) % workerCount);
        wakeFrom(start, 1);
    }

    // Wakers only CAS PARKED -> SIGNALLED and unpark: the woken worker unregisters itself (leave). The
    // first PARKED worker found from {@code start}, going up ({@code step} 1) or down (-1), is woken.
    private void wakeFrom(int start, int step) {
        int n = workerCount;
        for (int k = 0; k < n; k++) {
            int v = (start + step * k + n) % n;
            if (parkState(v) == Worker.PARKED && casParkState(v, Worker.PARKED, Worker.SIGNALLED)) {
                unpark(v);
                return;
            }
        }
    }

    /** Wakes every worker: after close()/shutdownNow() changed the run state, and at termination. */
    final void wakeAll() {
        for (int v = 0; v < workerCount; v++) {
            casParkState(v, Worker.PARKED, Worker.SIGNALLED);
            unpark(v);
        }
    }

    private void terminate() {
        markTerminated();
        wakeAll();
    }

    /** On worker {@code i}'s carrier: it takes a fiber from the pool (or a new one) for a job, before the fiber can run. */
    final void fiberStarted(int i) {
        int slot = (i + 1) * BALANCE_STRIDE;
        BALANCE.setRelease(fiberBalances, slot, (int) BALANCE.get(fiberBalances, slot) + 1);   // own slot: plain read
    }

    /** On worker {@code i}'s carrier: the fiber mounted there is about to park itself in the idle pool (or end). */
    final void fiberIdle(int i) {
        int slot = (i + 1) * BALANCE_STRIDE;
        BALANCE.setRelease(fiberBalances, slot, (int) BALANCE.get(fiberBalances, slot) - 1);
    }

    /**
     * Fibers out of the idle pool, summed over the workers' slots. Exact only while no worker runs
     * (decide's window); otherwise a snapshot that may mix moments, for reports.
     */
    final int busyFibers() {
        int sum = 0;
        for (int i = 0; i < workerCount; i++) {
            sum += (int) BALANCE.getAcquire(fiberBalances, (i + 1) * BALANCE_STRIDE);
        }
        return sum;
    }

    /** For hang reports. */
    @Override
    public String toString() {
        long s = sleepers;
        return "sleepers=" + (int) s + " sleeperEpoch=" + (s >>> 32) + " busyFibers=" + busyFibers()
                + " externalSubmitters=" + externalSubmitters.get();
    }

    // ------------------------------------------------------------------ accessors (the model overrides)

    int parkState(int i) {
        return workers[i].parkState;
    }

    void setParkState(int i, int state) {
        workers[i].parkState = state;
    }

    boolean casParkState(int i, int expect, int update) {
        return workers[i].casParkState(expect, update);
    }

    void unpark(int i) {
        LockSupport.unpark(workers[i].thread);
    }

    boolean hasVisibleWork() {
        return scheduler.picker.hasVisibleWork();
    }

    int runState() {
        return scheduler.runState();
    }

    void markTerminated() {
        scheduler.markTerminated();
    }
}
