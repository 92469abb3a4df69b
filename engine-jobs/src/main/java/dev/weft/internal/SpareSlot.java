package dev.weft.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One element that one owner thread keeps for itself and any thread may take when it needs it: a
 * worker's spare idle fiber (SYNCHRONIZATION.md §3, "Idle fibers"). The owner parks a fiber here after
 * it unmounted and takes it back for its next job start, so a fiber switch on one worker touches no line
 * another worker writes; a worker that found no idle fiber anywhere else takes (steals) another worker's
 * spare, so a bounded pool never reports itself dry while a fiber sits idle in a slot.
 *
 * <p>Who writes what: only the owner writes a non-null value ({@link #offer}); {@link #take} (owner or
 * not) writes null, with an atomic exchange. So the owner's "is it empty?" read before its release store
 * cannot be overtaken: nobody else can fill the slot in between, and a taker that empties it meanwhile
 * leaves it empty. Two takers (the owner and a thief, or two thieves) race on the exchange, and exactly
 * one of them gets the element. The element's state before the offer (a fiber that has unmounted) is
 * published by the release store and read after the taker's exchange (a volatile read-modify-write).
 * jcstress: {@code SpareSlotOwnerRefillVsThief}.
 *
 * @param <E> element type
 */
public final class SpareSlot<E> {
    private static final VarHandle SLOT;

    static {
        try {
            SLOT = MethodHandles.lookup().findVarHandle(SpareSlot.class, "slot", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") private Object slot;   // accessed through SLOT only

    /**
     * Owner only: keeps {@code e} if the slot is empty (a release store: no atomic), else returns false and
     * the caller puts it elsewhere.
     */
    public boolean offer(E e) {
        if (SLOT.get(this) != null) {       // plain: only we write non-null, so a null we read stays null
            return false;
        }
        SLOT.setRelease(this, e);
        return true;
    }

    /** Any thread: the element, taken (exchanged for null), or null if the slot is empty. */
    @SuppressWarnings("unchecked")
    public E take() {
        if (SLOT.getAcquire(this) == null) {   // the common empty case writes nothing (no line taken)
            return null;
        }
        return (E) SLOT.getAndSet(this, null);
    }

    /** Any thread: whether an element was there at the moment of reading (a hint for idle workers). */
    public boolean isOccupied() {
        return SLOT.getAcquire(this) != null;
    }
}
