package dev.weft;

import dev.weft.internal.FiberSupport;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A worker's deque of job nodes for one priority: the owner pushes and pops at the bottom (LIFO), any
 * thread steals at the top (FIFO). A taker claims an element by a CAS on a stamp in the node itself
 * ({@link JobNode#DEQUE_STAMP}), so a thief never reads the owner's {@code bottom}: with Chase–Lev
 * (which Weft's ready-fiber deques keep) every steal read it, and the owner writes it on every push, so
 * a thief keeping pace with the owner missed on that line at nearly every steal (SYNCHRONIZATION.md §18).
 *
 * <p>Shared state and access modes:
 * <pre>
 *   stamp   in each node: this deque's id (bits 48-62) and the index it was pushed at (bits 0-47),
 *           written by the owner (release) before the release store of its slot; CLAIMED (bit 63) is
 *           set by the one CAS that takes it, a thief's or the owner's
 *   top     the next index to claim from the old end; stored (release) only by the thief that just
 *           claimed the element at top, so stores happen in claim order; read with volatile
 *   bottom  the owner's next free index: release store on push and pop; read by others only for sizes
 *   array   replaced only by the owner on growth, volatile store; read by thieves with acquire
 *   slots   written by the owner (release on push); cleared plainly by whoever took the element (a
 *           thief before its store of top, which the owner must read before it reuses the slot)
 *   topBound the owner's alone, plain: a top it read when the ring looked full
 *   overflow nodes a push could not fit because the ring could not grow (the heap exhausted), linked
 *           through {@link JobNode#nextFree}: the owner pushes (CAS) and takes one (CAS); a thief or
 *           shutdownNow takes the whole list (getAndSet); on array's line (see keepOverflow)
 * </pre>
 * Cost: push = a plain store of the stamp and a release store of the slot and of bottom (plain stores
 * on x86), with no read of any line a thief writes; pop = one CAS on a node the owner just wrote;
 * steal = one CAS (the stamp), a plain store clearing the slot and a release store of top.
 *
 * <p>Why no ABA, although nodes are recycled: a stamp names the deque and the index, and indices only
 * grow; so a stale thief's CAS fails on a node pushed again elsewhere or further on. A node pushed again
 * at the same index of the same deque (the owner popped index i and pushed again before anyone claimed
 * i from the top) is the element at the top now, so claiming it is a steal like any other.
 */
final class JobDeque extends JobDequeLayout.PadAfterArray {
    /** Bit 63 of a stamp: the element was taken. A valid stamp never has it, and 0 is never valid. */
    static final long CLAIMED = Long.MIN_VALUE;
    private static final int INDEX_BITS = 48;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    private static final int MAX_ID = (1 << (63 - INDEX_BITS)) - 1;
    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    private static final VarHandle TOP;
    private static final VarHandle BOTTOM;
    private static final VarHandle ARRAY;
    private static final VarHandle OVERFLOW;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(JobNode[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TOP = l.findVarHandle(JobDequeLayout.Top.class, "top", long.class);
            BOTTOM = l.findVarHandle(JobDequeLayout.Bottom.class, "bottom", long.class);
            ARRAY = l.findVarHandle(JobDequeLayout.Array.class, "array", Object[].class);
            OVERFLOW = l.findVarHandle(JobDequeLayout.Array.class, "overflow", JobNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // The deque's id, shifted into place: ids 1..MAX_ID, reused round-robin. Two deques whose nodes can
    // move between them are live at once, and a system has far fewer than MAX_ID deques.
    private final long idBits;
    private final Thread owner;                  // checked by assertions at owner-only calls; null: unchecked

    JobDeque(int initialCapacity, Thread owner) {
        int cap = Integer.highestOneBit(Math.max(2, initialCapacity - 1)) << 1;
        array = new JobNode[cap];
        this.owner = owner;
        this.idBits = (long) (1 + Math.floorMod(NEXT_ID.getAndIncrement(), MAX_ID)) << INDEX_BITS;
    }

    private long stampOf(long index) {
        return idBits | (index & INDEX_MASK);
    }

    private boolean onOwnerThread(String call) {
        Thread carrier = FiberSupport.currentCarrier();
        if (owner != null && carrier != owner) {
            throw new AssertionError("JobDeque." + call + " is owner-only: called on " + carrier
                    + " (current thread " + Thread.currentThread() + "), owner " + owner);
        }
        return true;
    }

    /**
     * Owner only: pushes at the bottom. Returns true if the deque may have been empty before this push
     * (the element below the new one was taken, or there was none): the caller's cue to wake a sleeper.
     * Reads no line a thief writes, except {@code top} when the ring looks full.
     *
     * <p>Never throws for lack of memory: the caller has counted the node and taken it from wherever it
     * was, so if the ring must grow and cannot (the heap exhausted), the node goes on the owner's
     * {@link #keepOverflow overflow list}, which {@link #pop} empties once the ring is empty (and a thief or
     * shutdownNow's drain may take whole).
     */
    boolean push(JobNode node) {
        assert onOwnerThread("push");
        long b = (long) BOTTOM.getOpaque(this);
        JobNode[] a = (JobNode[]) ARRAY.getOpaque(this);
        if (b - topBound > a.length - 1) {             // may be full: where is top really?
            long t = (long) TOP.getVolatile(this);
            topBound = t;
            if (b - t > a.length - 1 && (a = grow(a, t, b)) == null) {
                keepOverflow(node);
                return false;                          // the ring is full, so not empty: nobody to wake
            }
        }
        int mask = a.length - 1;
        boolean belowTaken = unclaimedAt(a, b - 1) == null;   // the node below was taken, or there was none
        // Release, then the slot's release: a thief that reads the slot (acquire) sees the stamp and the
        // node's fields; one whose claim CAS reads this stamp sees the fields too, even if it read the
        // slot when it held this node's previous push at the same index.
        JobNode.DEQUE_STAMP.setRelease(node, stampOf(b));
        SLOT.setRelease(a, (int) (b & mask), node);
        BOTTOM.setRelease(this, b + 1);
        return belowTaken;
    }

    /** Owner only: pops the most recently pushed element, or null if empty (or its last went to a thief). */
    JobNode pop() {
        assert onOwnerThread("pop");
        return popBottom(null);
    }

    /**
     * Owner only: the node in the bottom slot, or null, read plainly with no check of its stamp: it may
     * already be a thief's (and, recycled there, another job's). A candidate for {@link #popIf}, whose
     * CAS decides; what it read of the node before that is only a hint.
     */
    JobNode atBottom() {
        assert onOwnerThread("atBottom");
        long b = (long) BOTTOM.getOpaque(this) - 1;
        JobNode[] a = (JobNode[]) ARRAY.getOpaque(this);
        return a[(int) (b & (a.length - 1))];
    }

    /**
     * Owner only: {@link #pop}, but only if the bottom element is {@code expected}; null otherwise (another
     * element at the bottom, none, or {@code expected} taken by a thief), and then nothing changes. With
     * {@link #atBottom} it replaces a validated peek and a pop: the claim CAS checks the stamp that the
     * peek read (volatile) before it.
     */
    JobNode popIf(JobNode expected) {
        assert onOwnerThread("popIf");
        return expected == null ? null : popBottom(expected);
    }

    /** {@link #pop} ({@code expected} null: whatever is at the bottom) and {@link #popIf}: the claim itself. */
    private JobNode popBottom(JobNode expected) {
        long b = (long) BOTTOM.getOpaque(this) - 1;
        JobNode[] a = (JobNode[]) ARRAY.getOpaque(this);
        int slot = (int) (b & (a.length - 1));
        JobNode n = a[slot];                           // the owner's own write, or null, or a thief's clear
        if (n == null || (expected != null && n != expected)) {
            // Only here, on the way out of an empty ring, is the overflow list looked at (a pop that finds
            // a job never reads it); for pop only, since popIf wants one particular node.
            return expected == null ? takeOverflow() : null;
        }
        long stamp = stampOf(b);
        // Fails if a thief claimed index b (thieves claim in index order, so it was the last), or if n sits
        // in this slot from an earlier index (its stamp names that index, not b): not ours to pop.
        if (!JobNode.DEQUE_STAMP.compareAndSet(n, stamp, stamp | CLAIMED)) {
            return expected == null ? takeOverflow() : null;
        }
        BOTTOM.setRelease(this, b);
        a[slot] = null;                                // index b is ours alone now
        return n;
    }

    /**
     * Owner only, cold: {@code node} could not go into the ring, which had to grow and could not (the heap
     * exhausted). It was counted and taken from its source, so dropping it would strand its counter: it
     * waits on the overflow list until the owner's {@link #pop} finds the ring empty and takes it, a thief
     * takes the whole list ({@link #takeAllOverflow}: a worker whose own pop and steals found nothing, so
     * an idle worker runs it while its owner is busy in a long job), or shutdownNow's drain takes it, cancels
     * and lists it. {@link #hasOverflow} is part of every pre-park scan. No allocation: the link is the
     * node's {@link JobNode#nextFree}, free while the node is live.
     *
     * <p>A CAS, release: whoever takes the list (getAndSet, acquire) sees the node's fields and link. It
     * fails only when a taker emptied the list meanwhile (the owner is the only pusher); then it links
     * again, to null. A node here has no valid stamp (0, or a claimed one from its last deque), so no
     * stale thief can claim it through a ring.
     */
    void keepOverflow(JobNode node) {
        JobNode head;
        do {
            head = (JobNode) OVERFLOW.getOpaque(this);
            node.nextFree = head;
        } while (!OVERFLOW.compareAndSet(this, head, node));
    }

    /**
     * Owner only: the most recent node of the overflow list, removed, or null (the common case: one opaque
     * load, of array's line, which the empty pop has just read). The CAS has no ABA: between our read of
     * the head and the CAS, only takers can change the list, and they only empty it; a node returns to the
     * head only by the owner's own push, which is not running.
     */
    private JobNode takeOverflow() {
        JobNode n = (JobNode) OVERFLOW.getOpaque(this);
        if (n == null || !OVERFLOW.compareAndSet(this, n, n.nextFree)) {
            return null;                               // empty, or a thief or shutdownNow took it all
        }
        n.nextFree = null;
        return n;
    }

    /**
     * Any thread: takes the whole overflow list, or null if it is empty: the head of a chain linked through
     * {@link JobNode#nextFree}, most recent first, now the caller's alone (it clears each link as it takes
     * the node). One getAndSet (acquire: sees every node the owner's CAS published), after an opaque read
     * so that an empty list costs no write.
     */
    JobNode takeAllOverflow() {
        if (OVERFLOW.getOpaque(this) == null) {
            return null;
        }
        return (JobNode) OVERFLOW.getAndSet(this, (JobNode) null);
    }

    /**
     * Unlinks the head of a chain {@link #takeAllOverflow} returned: clears its link (so that the node, run or
     * cancelled from here, keeps none of the others reachable) and returns the rest, or null. Plain accesses: the chain is the caller's alone.
     */
    static JobNode unlinkHead(JobNode head) {
        JobNode rest = head.nextFree;
        head.nextFree = null;
        return rest;
    }

    /**
     * Any thread: true if nodes wait on the overflow list (see {@link #keepOverflow}). An opaque read, on
     * array's line: for other threads a hint (their pre-park scans stay awake while it says so, and their
     * steals then take the list); for the owner, its own last write unless a taker emptied it.
     */
    boolean hasOverflow() {
        return OVERFLOW.getOpaque(this) != null;
    }

    /** Any thread: steals the oldest element, or null if none was there or another taker won it. */
    JobNode steal() {
        return stealIf(null);
    }

    /**
     * Any thread: steals the oldest element only if {@code wanted} accepts it (null: any); null if none,
     * refused, or lost. <b>The caller must test the element returned again</b>: the one tested is the one
     * claimed unless, between the test and the claim, the owner popped it and pushed the same node again
     * at the same index (a recycled node); then the claim takes the node as it is now, which is the
     * element at the top now, of the same deque and priority, but not necessarily one {@code wanted}
     * accepts.
     */
    JobNode stealIf(Predicate<? super JobNode> wanted) {
        long t = (long) TOP.getVolatile(this);
        JobNode[] a = (JobNode[]) ARRAY.getAcquire(this);
        // The stamp is read before the CAS: a failed CAS still takes the node's line, and on an empty
        // deque the slot at top holds a node the owner took and may be reusing.
        JobNode n = unclaimedAt(a, t);
        if (n == null) {
            return null;
        }
        if (wanted != null && !wanted.test(n)) {
            return null;
        }
        return claim(t, a, n);
    }

    /**
     * The thief's claim of index {@code t}, holding {@code n} read from its slot in {@code a}: all that
     * happens after the reads. Apart from {@link #stealIf}, only tests call it, with values read long
     * before, as a thief that stalled between its reads and its CAS would.
     */
    JobNode claim(long t, JobNode[] a, JobNode n) {
        long stamp = stampOf(t);
        if (!JobNode.DEQUE_STAMP.compareAndSet(n, stamp, stamp | CLAIMED)) {
            return null;
        }
        clearTaken(a, t);
        // We claimed index t: nobody else stores top now. Release, after the clearing: the owner pushes
        // into slot t again (index t + capacity) only once it has read a top above t, so after our clear.
        TOP.setRelease(this, t + 1);
        return n;
    }

    /** For tests: the top index and the ring, as a thief reads them before it claims. */
    long topIndex() {
        return (long) TOP.getVolatile(this);
    }

    JobNode[] ring() {
        return (JobNode[]) ARRAY.getAcquire(this);
    }

    /**
     * Thief, after claiming index {@code t} and before storing {@code top}: clears its slot, so that nothing
     * taken stays reachable from the deque. A plain store, not a CAS: until our store of {@code top}, no
     * index that maps to this slot can be pushed (the owner's push of index t + capacity needs a top above
     * t), and the node we claimed is held by us alone, so the slot holds it or null. Growth: the owner may
     * have copied it into a new array; we re-read the array after our claim (volatile; the claim CAS is a
     * full fence before it) and clear there too, and the owner, after publishing a new array (volatile),
     * re-reads the stamps of what it copied and clears the claimed ones: one of the two sees the other.
     */
    private void clearTaken(JobNode[] a, long t) {
        for (;;) {
            a[(int) (t & (a.length - 1))] = null;
            JobNode[] now = (JobNode[]) ARRAY.getVolatile(this);
            if (now == a) {
                return;
            }
            a = now;
        }
    }

    /**
     * Any thread: true if the element at the top looked unclaimed, so that a steal would try to claim it.
     * Reads what a steal reads (top, the slot, its stamp), not the owner's {@code bottom}: a thief's
     * test before it counts a steal attempt. False for a moment after a claim, until its thief stores
     * {@code top}; use {@link #isEmpty} where that matters.
     */
    boolean looksStealable() {
        long t = (long) TOP.getVolatile(this);
        return unclaimedAt((JobNode[]) ARRAY.getAcquire(this), t) != null;
    }

    /** The node at index {@code i} of ring {@code a} if its stamp says it is still there, unclaimed. */
    private JobNode unclaimedAt(JobNode[] a, long i) {
        JobNode n = (JobNode) SLOT.getAcquire(a, (int) (i & (a.length - 1)));
        return n != null && (long) JobNode.DEQUE_STAMP.getVolatile(n) == stampOf(i) ? n : null;
    }

    /** Any thread: an estimate of the number of elements (exact when quiescent). Reads {@code bottom}. */
    int size() {
        long t = (long) TOP.getVolatile(this);
        long b = (long) BOTTOM.getVolatile(this);
        return (int) Math.max(0, b - t);
    }

    /**
     * Any thread: true if the deque looked empty at the moment of reading. Reads the owner's
     * {@code bottom}: for scans off the job path (before sleeping, at shutdown, statistics). It may say
     * non-empty for a moment after the last element was claimed, until its thief stores {@code top}.
     */
    boolean isEmpty() {
        return size() == 0;
    }

    /** Current ring capacity (for tests and statistics). */
    int capacity() {
        return ((JobNode[]) ARRAY.getAcquire(this)).length;
    }

    /**
     * Tests only: the owner thread whose deques' next growth throws OutOfMemoryError, as an exhausted heap
     * would (null: none). Read on the growth path alone, never on a push that has room.
     */
    static volatile Thread failGrowthOnForTests;

    /** The ring, doubled; null if the heap has no room for it (then nothing changed). */
    private JobNode[] grow(JobNode[] old, long t, long b) {
        JobNode[] bigger;
        try {
            if (failGrowthOnForTests != null && failGrowthOnForTests == owner) {
                throw new OutOfMemoryError("Java heap space (simulated: JobDeque.grow)");
            }
            bigger = new JobNode[old.length << 1];
        } catch (OutOfMemoryError noRoom) {
            return null;                               // nothing changed yet: push keeps its node aside
        }
        for (long i = t; i < b; i++) {
            bigger[(int) (i & (bigger.length - 1))] = old[(int) (i & (old.length - 1))];
        }
        // Volatile: ordered before our re-reads of the stamps below, for the clearing handshake with
        // thieves (see clearTaken). A thief still reading the old array claims the same nodes there: the
        // claim is in the node, not in the array.
        ARRAY.setVolatile(this, bigger);
        for (long i = t; i < b; i++) {
            int slot = (int) (i & (bigger.length - 1));
            JobNode n = bigger[slot];
            if (n != null && (long) JobNode.DEQUE_STAMP.getVolatile(n) != stampOf(i)) {
                SLOT.compareAndSet(bigger, slot, n, null);   // claimed while we copied
            }
        }
        return bigger;
    }
}
