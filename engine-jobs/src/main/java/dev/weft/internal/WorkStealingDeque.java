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
 *           with acquire after reading bottom; the owner reads the one below bottom with acquire (push)
 *   topBound the owner's alone, plain: a top it read (pop, or push when the ring looked full)
 * </pre>
 * Cost: push = one release store (a plain store on x86); pop = one full fence (the StoreLoad between
 * writing bottom and reading top) and, for the last element only, a CAS; steal = two CASes (top, then
 * clearing the slot) and a volatile load.
 *
 * <p>Nothing taken stays reachable: pop clears its slot, a thief clears the slot it took (CAS from the
 * element, see {@link #clearTaken}), growth clears copies of what was stolen meanwhile. A job's closure
 * and result are garbage once the job ended and its caller dropped the handle.
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

    // The fields top, bottom (with topBound) and array are declared in WorkStealingDequeLayout, each
    // between 128-byte pads (superclasses, so HotSpot keeps the declared order).

    // The owner thread, checked by assertions (on under tests) at every owner-only call; null: unchecked.
    private final Thread owner;

    /** Creates a deque with the given initial capacity, rounded up to a power of two, owner unchecked. */
    public WorkStealingDeque(int initialCapacity) {
        this(initialCapacity, null);
    }

    /**
     * Creates a deque whose owner-only calls ({@link #push}, {@link #pop}, {@link #peekBottom}) must come
     * from {@code owner} or a virtual thread mounted on it; with assertions on ({@code -ea}, as under
     * the tests) a call from another thread fails with an {@link AssertionError} instead of corrupting
     * the deque silently.
     */
    public WorkStealingDeque(int initialCapacity, Thread owner) {
        int cap = Integer.highestOneBit(Math.max(2, initialCapacity - 1)) << 1;
        array = new Object[cap];
        this.owner = owner;
    }

    private boolean onOwnerThread(String call) {
        Thread carrier = FiberSupport.currentCarrier();
        if (owner != null && carrier != owner) {
            throw new AssertionError("WorkStealingDeque." + call + " is owner-only: called on " + carrier
                    + " (current thread " + Thread.currentThread() + "), owner " + owner);
        }
        return true;
    }

    /**
     * Owner only: pushes at the bottom. Returns true if the deque may have been empty before this push
     * (the element below the new one was taken or there was none): the caller's cue to wake a sleeper.
     *
     * <p>Push does not read {@code top}: every steal writes that line, so reading it here moved it to the
     * owner on every push after a steal, and the thief's next CAS had to take it back. Room is checked
     * against {@code topBound}, a value of top read earlier: top only grows, so it is a lower bound and
     * errs towards "full", and only then is top read again. Emptiness is read from the slot below ours,
     * as ForkJoinPool's push does: pop and steal clear the slot of what they take, so a non-null slot
     * at {@code b - 1} means that element was still there (or a thief is between its CAS on top and
     * clearing the slot: it is awake and comes back for more, as after any steal).
     */
    public boolean push(E e) {
        assert onOwnerThread("push");
        long b = (long) BOTTOM.getOpaque(this);
        Object[] a = (Object[]) ARRAY.getOpaque(this);
        if (b - topBound > a.length - 1) {             // may be full: where is top really?
            long t = (long) TOP.getAcquire(this);
            topBound = t;
            if (b - t > a.length - 1) {
                a = grow(a, t, b);
            }
        }
        int mask = a.length - 1;
        // The slot below is the owner's own write, or null from a pop or a thief's clearing CAS (a plain
        // load on x86). Any value read is a valid answer for the wake-up, as the javadoc says.
        boolean belowTaken = SLOT.getAcquire(a, (int) ((b - 1) & mask)) == null;
        SLOT.set(a, (int) (b & mask), e);
        // Release: a thief that reads the new bottom with acquire also sees the slot.
        BOTTOM.setRelease(this, b + 1);
        return belowTaken;
    }

    /** Owner only: pops the most recently pushed element, or null if empty (or lost to a thief). */
    @SuppressWarnings("unchecked")
    public E pop() {
        assert onOwnerThread("pop");
        long b = (long) BOTTOM.getOpaque(this) - 1;
        Object[] a = (Object[]) ARRAY.getOpaque(this);
        // StoreLoad: the write of bottom must be visible before we read top, or a thief and the owner
        // could both take the last element. Both are volatile accesses, as are the thief's reads of top
        // and bottom in steal: the JMM puts all four in one total order (sequential consistency), which is
        // what the full fences of Lê et al. (PPoPP 2013) give in C11 — in pop between the store of bottom
        // and the load of top, in steal between the loads of top and bottom. On x86 this is the same code
        // as before (a store plus one locked instruction; volatile loads are plain loads).
        BOTTOM.setVolatile(this, b);
        long t = (long) TOP.getVolatile(this);
        topBound = t;
        if (t > b) {                                   // was empty
            BOTTOM.setOpaque(this, b + 1);
            return null;
        }
        int slot = (int) (b & (a.length - 1));
        Object e = SLOT.get(a, slot);
        if (t == b) {                                  // last element: race the thieves for it
            boolean won = TOP.compareAndSet(this, t, t + 1);
            BOTTOM.setOpaque(this, b + 1);
            // Index b is dead now whoever won (top passed it): a stale thief's CAS on top fails, so it
            // never returns what it read here. Clearing keeps the taken element unreachable from us.
            SLOT.set(a, slot, null);
            return won ? (E) e : null;
        }
        SLOT.set(a, slot, null);                       // t < b: index b is ours alone (Chase–Lev)
        return (E) e;
    }

    /**
     * Owner only: the element {@link #pop} would return next, without removing it, or null. The owner uses
     * it to decide whether the bottom element is one it may run inline (a job the waiter depends on).
     */
    @SuppressWarnings("unchecked")
    public E peekBottom() {
        assert onOwnerThread("peekBottom");
        long b = (long) BOTTOM.getOpaque(this);
        long t = (long) TOP.getAcquire(this);
        if (b - t <= 0) {
            return null;
        }
        Object[] a = (Object[]) ARRAY.getOpaque(this);
        return (E) SLOT.get(a, (int) ((b - 1) & (a.length - 1)));
    }

    /** Any thread: steals the oldest element, or null if empty or the CAS was lost to another taker. */
    public E steal() {
        return stealIf(null);
    }

    /**
     * Any thread: steals the oldest element only if {@code wanted} accepts it (null: any); null if empty,
     * refused, or the CAS was lost. The element tested is the one the CAS takes: slot t cannot be
     * overwritten while index t is not taken (the owner grows instead of wrapping onto live slots).
     */
    public E stealIf(java.util.function.Predicate<? super E> wanted) {
        return stealAt((long) TOP.getVolatile(this), wanted);
    }

    /**
     * Any thread: the index of the oldest element, the one {@link #steal} would take next (volatile read).
     * While it stays the same, so does that element: an element leaves the top only by a CAS that moves
     * top past it (a thief's, or the owner's pop of the last element), and the owner never writes a slot
     * between top and bottom. So {@code (deque, topIndex())} names one element, with no ABA, for
     * {@link #stealIfTopIs}.
     */
    public long topIndex() {
        return (long) TOP.getVolatile(this);
    }

    /**
     * Any thread: steals the oldest element only if it is still the one at index {@code expectedTop} (see
     * {@link #topIndex}); null if it was taken meanwhile, the deque is empty, or the CAS was lost.
     */
    public E stealIfTopIs(long expectedTop) {
        long t = (long) TOP.getVolatile(this);
        return t == expectedTop ? stealAt(t, null) : null;
    }

    @SuppressWarnings("unchecked")
    private E stealAt(long t, java.util.function.Predicate<? super E> wanted) {
        // Volatile loads, in this order: top (read by the caller) before bottom, both in the total order
        // with pop's volatile store of bottom and load of top (see pop). Reading bottom also acquires the
        // owner's release in push, so the slot at t is published.
        long b = (long) BOTTOM.getVolatile(this);
        if (t >= b) {
            return null;
        }
        Object[] a = (Object[]) ARRAY.getAcquire(this);
        Object e = SLOT.getAcquire(a, (int) (t & (a.length - 1)));
        if (wanted != null && (e == null || !wanted.test((E) e))) {
            return null;
        }
        // The CAS is a full fence: if it succeeds no one else took index t, and the owner cannot have
        // overwritten slot t because it grows instead of wrapping onto live slots.
        if (!TOP.compareAndSet(this, t, t + 1)) {
            return null;
        }
        clearTaken(a, t, e);
        return (E) e;
    }

    /**
     * Thief, after winning index {@code t}: clears the slot that still references {@code e}, so a taken
     * element is reachable from the deque no longer (a finished job's closure and result would otherwise
     * stay alive until the owner happens to overwrite the slot). A CAS from {@code e}, never a plain
     * store: the owner may already have pushed a new element into the same slot (index t + capacity).
     * No ABA: until this method returns, {@code e} is held by this thief alone, so nobody can have pushed
     * it again. Growth: the owner may have copied index t into a new array before our CAS on top; we
     * re-read the array (volatile) after that CAS and clear there too, and the owner re-reads top
     * (volatile) after publishing a new array and clears what was taken meanwhile (see grow): Dekker,
     * one of the two sees the other.
     */
    private void clearTaken(Object[] a, long t, Object e) {
        for (;;) {
            SLOT.compareAndSet(a, (int) (t & (a.length - 1)), e, null);
            Object[] now = (Object[]) ARRAY.getVolatile(this);
            if (now == a) {
                return;
            }
            a = now;
        }
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
        // Volatile (release is enough for publication): ordered before our re-read of top below, for the
        // clearing handshake with thieves (see clearTaken). Thieves still holding the old array read
        // valid elements from it: slots in [top, bottom) are never overwritten there.
        ARRAY.setVolatile(this, bigger);
        // Indices taken by thieves while we copied are dead; clear their copies. [t, now) cannot collide
        // with a live index: every live one is in [now, b), and b - t < old.length < bigger.length.
        long now = (long) TOP.getVolatile(this);
        for (long i = t; i < now; i++) {
            bigger[(int) (i & (bigger.length - 1))] = null;
        }
        return bigger;
    }
}
