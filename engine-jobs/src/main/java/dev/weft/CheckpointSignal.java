package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

// Class-hierarchy padding, as in WorkerParking: the mask is read by every checkpoint of every long job
// and written rarely, so it must not share a line with anything written often.
abstract class CheckpointSignalPadHead {
    @SuppressWarnings("unused") long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

abstract class CheckpointSignalMask extends CheckpointSignalPadHead {
    volatile int queuedMask;           // bit p: work of priority p may be queued since a checkpoint looked
}

/**
 * What {@link Jobs#checkpoint()} reads: one bit per priority, "work of this priority may be waiting in a
 * queue". The one owner of {@link #queuedMask}.
 *
 * <p><b>Protocol</b> (a Dekker pair, like the sleepers protocol in {@link WorkerParking}; SYNCHRONIZATION.md
 * §11). A producer that made a queue of priority p go from empty to non-empty calls
 * {@link WorkerParking#signalWork(int)}: its full fence orders the published element before the read of
 * the mask, and it sets bit p only if it is clear (a read of a line that is rarely written costs no
 * transfer; the set is a transition, as a wake-up is). A checkpoint that sees a bit above its own priority
 * clears those bits ({@code getAndBitwiseAnd}: a full fence) and then scans the queues. Either the scan
 * sees the element, or the producer's read comes after the clear and sets the bit again: a queued item of
 * higher priority is never missed by every later checkpoint. A queue that was already non-empty sets no
 * bit, but then the scan sees its older element. The scan sets back the bits of what it found, so other
 * workers' checkpoints see them too.
 *
 * <p>False positives (the bit stays set after the work was taken) cost one scan, never a wrong yield: a
 * checkpoint yields only when its scan found work.
 */
final class CheckpointSignal extends CheckpointSignalMask {
    private static final VarHandle MASK;

    static {
        try {
            MASK = MethodHandles.lookup().findVarHandle(CheckpointSignalMask.class, "queuedMask", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;

    /** The bits of the priorities above (more urgent than) {@code priority}: FRAME is 0. */
    static int above(int priority) {
        return (1 << priority) - 1;
    }

    /** Producer, after its full fence: work of {@code priority} was queued into an empty queue. */
    void noteQueued(int priority) {
        int bit = 1 << priority;
        if ((queuedMask & bit) == 0) {
            MASK.getAndBitwiseOr(this, bit);
        }
    }

    /** Checkpoint fast path: one volatile load. */
    boolean mayBeQueued(int bits) {
        return (queuedMask & bits) != 0;
    }

    /** Checkpoint slow path, before the scan: a full fence (an atomic read-modify-write). */
    void clear(int bits) {
        MASK.getAndBitwiseAnd(this, ~bits);
    }

    /** The scan found work of these priorities: leave them visible to other checkpoints. */
    void set(int bits) {
        if ((queuedMask & bits) != bits) {
            MASK.getAndBitwiseOr(this, bits);
        }
    }
}
