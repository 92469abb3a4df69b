package dev.weft.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A Chase–Lev work-stealing deque (Chase and Lev, SPAA 2005; memory orderings after Lê, Pop, Cohen and
 * Zappa Nardelli, PPoPP 2013) on VarHandles, with a growable ring.
 *
 * <p>One owner thread calls {@link #push} and {@link #pop} at the bottom (LIFO); any thread calls
 * {@link #steal} at the top (FIFO). The owner may be a worker's carrier thread or a fiber mounted on it:
 * both run on the same OS thread, one at a time, so they are one owner.
 *
 * <p>Shared state and access modes:
 * <pre>
 *   top     written by thieves and by the owner's last-element race, only by CAS (volatile);
 *           read with acquire
 *   bottom  written only by the owner: release store on push (publishes the slot), plain/volatile on
 *           pop; read by thieves with acquire
 *   array   replaced only by the owner on growth, release store; read by thieves with acquire
 *   slots   written by the owner with a plain store before the release store of bottom; read by thieves
 *           with acquire after reading bottom
 * </pre>
 * Cost: push = one release store (a plain store on x86); pop = one full fence (the StoreLoad between
 * writing bottom and reading top) and, for the last element only, a CAS; steal = one CAS.
 *
 * @param <E> element type
 */
public final class WorkStealingDeque<E> extends WorkStealingDequeLayout.PadAfterArray {
    private static final VarHandle TOP;
    private static final VarHandle BOTTOM;
    private static final VarHandle ARRAY;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TOP = l.findVarHandle(WorkStealingDequeLayout.Top.class, "top", long.class);
            BOTTOM = l.findVarHandle(WorkStealingDequeLayout.Bottom.class, "bottom", long.class);
            ARRAY = l.findVarHandle(WorkStealingDequeLayout.Array.class, "array", Object[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // The fields top, bottom and array are declared in WorkStealingDequeLayout, each between 128-byte
    // pads (superclasses, so HotSpot keeps the declared order).

    /** Creates a deque with the given initial capacity, rounded up to a power of two. */
    public WorkStealingDeque(int initialCapacity) {
        int cap = Integer.highestOneBit(Math.max(2, initialCapacity - 1)) << 1;
        array = new Object[cap];
    }

    /** Owner only: pushes at the bottom. Returns true if the deque was empty before this push. */
    public boolean push(E e) {
        long b = (long) BOTTOM.getOpaque(this);
        long t = (long) TOP.getAcquire(this);
        Object[] a = (Object[]) ARRAY.getOpaque(this);
        if (b - t > a.length - 1) {
            a = grow(a, t, b);
        }
        SLOT.set(a, (int) (b & (a.length - 1)), e);
        // Release: a thief that reads the new bottom with acquire also sees the slot.
        BOTTOM.setRelease(this, b + 1);
        return b - t <= 0;
    }

    /** Owner only: pops the most recently pushed element, or null if empty (or lost to a thief). */
    @SuppressWarnings("unchecked")
    public E pop() {
        long b = (long) BOTTOM.getOpaque(this) - 1;
        Object[] a = (Object[]) ARRAY.getOpaque(this);
        BOTTOM.setOpaque(this, b);
        // StoreLoad: the write of bottom must be visible before we read top, or a thief and the owner
        // could both take the last element.
        VarHandle.fullFence();
        long t = (long) TOP.getOpaque(this);
        if (t > b) {                                   // was empty
            BOTTOM.setOpaque(this, b + 1);
            return null;
        }
        Object e = SLOT.get(a, (int) (b & (a.length - 1)));
        if (t == b) {                                  // last element: race the thieves for it
            boolean won = TOP.compareAndSet(this, t, t + 1);
            BOTTOM.setOpaque(this, b + 1);
            return won ? (E) e : null;
        }
        return (E) e;
    }

    /**
     * Owner only: the element {@link #pop} would return next, without removing it, or null. The owner uses
     * it to decide whether the bottom element is one it may run inline (a job the waiter depends on).
     */
    @SuppressWarnings("unchecked")
    public E peekBottom() {
        long b = (long) BOTTOM.getOpaque(this);
        long t = (long) TOP.getAcquire(this);
        if (b - t <= 0) {
            return null;
        }
        Object[] a = (Object[]) ARRAY.getOpaque(this);
        return (E) SLOT.get(a, (int) ((b - 1) & (a.length - 1)));
    }

    /** Any thread: steals the oldest element, or null if empty or the CAS was lost to another taker. */
    @SuppressWarnings("unchecked")
    public E steal() {
        long t = (long) TOP.getAcquire(this);
        // Acquire on bottom pairs with the owner's release in push: the slot at t is published.
        long b = (long) BOTTOM.getAcquire(this);
        if (t >= b) {
            return null;
        }
        Object[] a = (Object[]) ARRAY.getAcquire(this);
        Object e = SLOT.getAcquire(a, (int) (t & (a.length - 1)));
        // The CAS is a full fence: if it succeeds no one else took index t, and the owner cannot have
        // overwritten slot t because it grows instead of wrapping onto live slots.
        if (!TOP.compareAndSet(this, t, t + 1)) {
            return null;
        }
        return (E) e;
    }

    /** Any thread: an estimate of the number of elements (exact when quiescent). */
    public int size() {
        long b = (long) BOTTOM.getAcquire(this);
        long t = (long) TOP.getAcquire(this);
        return (int) Math.max(0, b - t);
    }

    /** Any thread: true if the deque looked empty at the moment of reading. */
    public boolean isEmpty() {
        return size() == 0;
    }

    /** Current ring capacity (for tests and statistics). */
    public int capacity() {
        return ((Object[]) ARRAY.getAcquire(this)).length;
    }

    private Object[] grow(Object[] old, long t, long b) {
        Object[] bigger = new Object[old.length << 1];
        for (long i = t; i < b; i++) {
            bigger[(int) (i & (bigger.length - 1))] = old[(int) (i & (old.length - 1))];
        }
        // Release: a thief that reads the new array sees its copied slots. Thieves still holding the old
        // array read valid elements from it: slots in [top, bottom) are never overwritten there.
        ARRAY.setRelease(this, bigger);
        return bigger;
    }
}
