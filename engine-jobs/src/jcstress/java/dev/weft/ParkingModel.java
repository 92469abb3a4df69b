package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * jcstress only: the real {@link WorkerParking} protocol (register, decide, leave, signalWork, wakeAll:
 * the final methods, unchanged) over {@code n} model workers. Only the accessors are replaced: park
 * states live in an int array (volatile loads and stores, CAS, as {@code Worker.parkState}), unpark is
 * a no-op (a jcstress actor must not block: it records the decision instead of parking), and "the
 * queues" are one count of queued jobs, published with a release store and read with an acquire load,
 * as a deque's {@code bottom} is (so the StoreLoad fence in signalWork is what orders it).
 */
public final class ParkingModel extends WorkerParking {
    public static final int DECIDED_LEAVE = LEAVE;
    public static final int DECIDED_PARK = PARK;
    public static final int DECIDED_TERMINATE = TERMINATE;
    public static final int AWAKE = Worker.RUNNING;
    public static final int ASLEEP = Worker.PARKED;
    public static final int WOKEN = Worker.SIGNALLED;

    private static final VarHandle STATE = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle QUEUED;

    static {
        try {
            QUEUED = MethodHandles.lookup().findVarHandle(ParkingModel.class, "queued", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int[] parkStates;
    private volatile int runState;
    @SuppressWarnings("unused") private int queued;    // jobs in "the queues": release store, acquire load

    /** {@code closing}: the run state is CLOSING (close() was called), else RUNNING. */
    public ParkingModel(int workers, boolean closing) {
        super(workers);
        this.parkStates = new int[workers];
        this.runState = closing ? Scheduler.CLOSING : Scheduler.RUNNING;
    }

    // ---- the protocol, as a worker or a producer calls it

    /** Worker {@code i}, about to park: the ticket for {@link #decideToPark}. */
    public long registerAsleep(int i) {
        return register(i);
    }

    public int decideToPark(long ticket) {
        return decide(ticket);
    }

    public void leavePark(int i) {
        leave(i);
    }

    /** Worker {@code i} registers and decides; unless the decision is to park, it leaves. The decision. */
    public int tryToPark(int i) {
        int d = decideToPark(registerAsleep(i));
        if (d != DECIDED_PARK) {
            leavePark(i);
        }
        return d;
    }

    /** A producer: publish one job (release store, like a push), then signal. */
    public void publishAndSignal() {
        publish();
        signalWork();
    }

    /**
     * A thread that is not a worker: publish one job (as an injection), then signal as it does. BACKGROUND,
     * the one priority that sets no checkpoint bit: that bit's first set is an atomic read-modify-write,
     * a full fence of its own on x86, which would hide a missing fence in the signal.
     */
    public void injectAndSignal() {
        publish();
        signalInjectedWork(Priority.BACKGROUND.ordinal());
    }

    /** A producer: publish one FRAME job into an empty queue, then signal (sets the checkpoint bit). */
    public void publishFrameAndSignal() {
        publish();
        signalWork(Priority.FRAME.ordinal());
    }

    /** Before the actors: the FRAME checkpoint bit is already set (stale, from work taken since). */
    public void staleFrameBit() {
        checkpoints.set(1 << Priority.FRAME.ordinal());
    }

    /**
     * A BACKGROUND job's checkpoint, as {@code Fiber.checkpoint}: the real CheckpointSignal fast path,
     * clear, then "the scan" (an acquire load of the queued count, as the deques' isEmpty); 1 if it
     * found the job (it would yield).
     */
    public int checkpoint() {
        int above = CheckpointSignal.above(Priority.BACKGROUND.ordinal());
        if (!checkpoints.mayBeQueued(above)) {
            return 0;
        }
        checkpoints.clear(above);
        if ((int) QUEUED.getAcquire(this) == 0) {
            return 0;
        }
        checkpoints.set(1 << Priority.FRAME.ordinal());
        return 1;
    }

    /** 1 if the FRAME checkpoint bit is set. */
    public int frameBit() {
        return checkpoints.mayBeQueued(1 << Priority.FRAME.ordinal()) ? 1 : 0;
    }

    /** Before the actors: a job already queued. */
    public void publish() {
        QUEUED.setRelease(this, (int) QUEUED.getAcquire(this) + 1);
    }

    /** close()/shutdownNow()/termination wake-up of every worker. */
    public void wakeEveryone() {
        wakeAll();
    }

    /** A woken worker takes a job into its hand (CAS, like a steal): true if it got one. */
    public boolean take() {
        for (;;) {
            int q = (int) QUEUED.getAcquire(this);
            if (q == 0) {
                return false;
            }
            if (QUEUED.compareAndSet(this, q, q - 1)) {
                return true;
            }
        }
    }

    /** Worker {@code i}'s carrier takes a fiber for a job (the real per-worker balance). */
    public void fiberStartedOn(int i) {
        fiberStarted(i);
    }

    /** A fiber mounted on worker {@code i}'s carrier parks itself idle. */
    public void fiberIdleOn(int i) {
        fiberIdle(i);
    }

    public int queued() {
        return (int) QUEUED.getAcquire(this);
    }

    public int parkStateOf(int i) {
        return parkState(i);
    }

    public boolean terminated() {
        return runState == Scheduler.TERMINATED;
    }

    // ---- the accessors WorkerParking allows a subclass to replace

    @Override
    int parkState(int i) {
        return (int) STATE.getVolatile(parkStates, i);
    }

    @Override
    void setParkState(int i, int state) {
        STATE.setVolatile(parkStates, i, state);
    }

    @Override
    boolean casParkState(int i, int expect, int update) {
        return STATE.compareAndSet(parkStates, i, expect, update);
    }

    @Override
    void unpark(int i) {
        // the model's workers never block
    }

    @Override
    boolean hasVisibleWork() {
        return (int) QUEUED.getAcquire(this) != 0;
    }

    @Override
    int runState() {
        return runState;
    }

    @Override
    void markTerminated() {
        runState = Scheduler.TERMINATED;
    }
}
