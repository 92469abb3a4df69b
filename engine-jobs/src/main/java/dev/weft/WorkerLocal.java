package dev.weft;

import dev.weft.internal.FiberSupport;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A value per worker thread, for scratch memory that jobs reuse: traversal stacks, temporary arrays,
 * per-worker accumulators. The fiber-safe replacement for a {@link ThreadLocal} cache.
 *
 * <pre>{@code
 * private static final WorkerLocal<int[]> STACK = WorkerLocal.withInitial(() -> new int[64]);
 *
 * jobs.parallelFor(0, rays.length, 256, (start, end, worker) -> {
 *     int[] stack = STACK.get();            // this worker's; no allocation after the first call
 *     for (int i = start; i < end; i++) trace(rays[i], stack);
 * });
 * }</pre>
 *
 * <p>Why not a {@code ThreadLocal}: a job runs on a fiber, and Weft clears a fiber's ThreadLocals after
 * every job (so one job's values never leak into the next job that reuses the fiber), which makes a
 * ThreadLocal cache one fresh value per job. A {@code WorkerLocal} belongs to the worker thread the
 * job is running on, so it survives from job to job on that worker.
 *
 * <p>The rule: use the value between waits only. A job that waits ({@link Counter#await()},
 * {@link JobHandle#join()}, any parking call) may resume on another worker, and while it waits, other
 * jobs run on its worker and get the same value. Call {@link #get()} again after a wait. Outside a
 * job (the main thread, an I/O thread) {@link #get()} gives a value per thread, like a ThreadLocal; a
 * job that such a thread runs while it waits ({@link JobSystemBuilder#waitersHelp}) gets the value of
 * worker slot {@code workerCount()}, whichever thread holds that slot.
 *
 * <p>Lifetime: a worker's value is kept until the worker thread ends ({@link JobSystem#close()}) or this
 * {@code WorkerLocal} is dropped, whichever comes first. A {@code WorkerLocal} made per level (or per
 * system instance) and dropped at unload frees every worker's value once it is unreachable, as a dropped
 * ThreadLocal's values are (a {@link Cleaner} clears them after the garbage collector found it
 * unreachable), and its slot index is then reused by the next {@code WorkerLocal} made. {@link #close()}
 * frees them at once, without waiting for the collector. Values of threads outside the workers are held
 * by a ThreadLocal and go as that ThreadLocal's do.
 *
 * <p>Threading: only the worker thread itself touches its slots (plain reads and writes, no fences); a
 * reused slot index never hands one {@code WorkerLocal}'s value to another: each slot holds a cell that
 * names its {@code WorkerLocal}, and a cell of another one reads as empty (SYNCHRONIZATION.md, §2).
 *
 * @param <T> the value type
 */
public final class WorkerLocal<T> implements AutoCloseable {
    private static final AtomicInteger NEXT_SLOT = new AtomicInteger();
    // Slot indices of dead WorkerLocals, reused lowest first so workers' slot arrays stay as small as the
    // most WorkerLocals ever alive at once. Lock-free; touched only when a WorkerLocal is made or freed.
    private static final ConcurrentSkipListSet<Integer> FREE_SLOTS = new ConcurrentSkipListSet<>();
    private static final Cleaner CLEANER = Cleaner.create(r -> new Thread(r, "WorkerLocal-cleaner"));

    private final int slot;
    private final Owner owner;                        // what the slots' cells name; never references this
    private final Supplier<? extends T> initial;
    private final ThreadLocal<T> offWorker;
    private final Cleaner.Cleanable cleanable;

    private WorkerLocal(Supplier<? extends T> initial) {
        this.initial = initial;
        Integer free = FREE_SLOTS.pollFirst();
        this.slot = free != null ? free : NEXT_SLOT.getAndIncrement();
        this.owner = new Owner(slot);
        this.offWorker = ThreadLocal.withInitial(this::create);
        this.cleanable = CLEANER.register(this, owner);   // the owner is the cleaning action: no ref to this
    }

    /**
     * A worker-local whose value on each worker (and each other thread) is made by {@code initial} on
     * that thread's first {@link #get()}.
     *
     * @param <T> the value type
     * @param initial makes each thread's value, on that thread; must not return null
     * @return a new worker-local
     * @throws NullPointerException if {@code initial} is null
     */
    public static <T> WorkerLocal<T> withInitial(Supplier<? extends T> initial) {
        return new WorkerLocal<>(Objects.requireNonNull(initial, "initial"));
    }

    /**
     * This worker's value (made on first use); on a thread that is not a Weft job, this thread's.
     *
     * @return the value of the worker (or thread) running the caller
     * @throws NullPointerException if the initial supplier returned null
     * @throws IllegalStateException if this worker-local was {@linkplain #close() closed}
     */
    @SuppressWarnings("unchecked")
    public T get() {
        if (FiberSupport.currentCarrier() instanceof WorkerThread carrier) {   // a job on a Weft worker
            Object v = carrier.workerLocals.peek(slot, owner);
            return v != null ? (T) v : makeHere();
        }
        WaitingHelp seat = WaitingHelp.current();       // a job a waiting thread runs: worker workerCount()
        if (seat != null) {
            Object v = seat.workerLocals.peek(slot, owner);
            return v != null ? (T) v : makeHere();
        }
        checkOpen();
        return offWorker.get();
    }

    /**
     * Frees this worker-local now: every worker's value becomes garbage and its slot index is reused; this
     * thread's own value outside the workers is removed too (other threads' go as a dropped ThreadLocal's
     * do). Dropping the last reference has the same effect, once the garbage collector notices. Idempotent.
     * Call it when nothing uses the worker-local any more: a {@link #get()} after it throws.
     */
    @Override
    public void close() {
        offWorker.remove();
        cleanable.clean();                              // runs Owner.run at most once, here or by the Cleaner
    }

    /** For tests: the slot index in every worker's slot array. */
    int slotIndex() {
        return slot;
    }

    /** For tests: true if {@code slot} is free, to be taken by the next WorkerLocal made. */
    static boolean slotIsFree(int slot) {
        return FREE_SLOTS.contains(slot);
    }

    /** The slow path of {@link #get()}: no value of ours in this worker's (or the seat's) slot yet. */
    @SuppressWarnings("unchecked")
    private T makeHere() {
        try {
            checkOpen();
            T made = create();
            // The supplier may have parked and the fiber moved: store on the worker we are on now.
            Slots here = slotsHere();
            if (here == null) {
                return made;
            }
            Object v = here.peek(slot, owner);
            if (v != null) {
                return (T) v;
            }
            Cell cell = new Cell(owner, made);
            if (!owner.register(cell)) {                // closed meanwhile: store nothing the cleaner missed
                throw closed();
            }
            here.put(slot, cell);
            return made;
        } finally {
            // Keeps this WorkerLocal reachable until the cell is registered: otherwise the Cleaner could run
            // between our last field read and the registration (a one-shot withInitial(..).get()), close the
            // owner under us and make this call throw.
            Reference.reachabilityFence(this);
        }
    }

    private static Slots slotsHere() {
        if (FiberSupport.currentCarrier() instanceof WorkerThread now) {
            return now.workerLocals;
        }
        WaitingHelp seat = WaitingHelp.current();
        return seat != null ? seat.workerLocals : null;
    }

    private void checkOpen() {
        if (owner.isClosed()) {
            throw closed();
        }
    }

    private IllegalStateException closed() {
        return new IllegalStateException("WorkerLocal used after close(): make a new one");
    }

    T create() {
        T value = initial.get();
        if (value == null) {
            throw new NullPointerException("WorkerLocal's initial supplier returned null; it must make a value");
        }
        return value;
    }

    /**
     * One worker's value of one WorkerLocal, held by that worker's slot. {@code value} is written by the
     * worker before the owner's registration CAS publishes the cell, and cleared (plain) by the owner's
     * cleaning, after the WorkerLocal died or was closed: nobody reads it then but a get() racing close(),
     * which may see either (a reference never tears).
     */
    static final class Cell {
        final Owner owner;
        Object value;

        Cell(Owner owner, Object value) {
            this.owner = owner;
            this.value = value;
        }
    }

    /** A node of an owner's list of cells: weak, so a cell dies with the worker thread whose slot held it. */
    private static final class CellRef extends WeakReference<Cell> {
        CellRef next;                                   // written before the publishing CAS; shortened (plain)

        CellRef(Cell cell, CellRef next) {
            super(cell);
            this.next = next;
        }
    }

    /**
     * The identity the slots' cells carry, and the cleaning action: it must not reference its WorkerLocal,
     * or the Cleaner would keep it alive. {@code cells} is a Treiber stack of every cell made for this
     * WorkerLocal (weakly: a worker thread that ends takes its cells with it); the cleaning swaps it for
     * {@link #CLOSED} (one atomic exchange), then clears every cell it took and frees the slot index.
     * A registration CAS and that exchange are atomics on one field: either the cell is in what the
     * cleaning took, or the registration sees CLOSED and stores nothing.
     */
    static final class Owner implements Runnable {
        private static final CellRef CLOSED = new CellRef(null, null);
        private static final VarHandle CELLS;

        static {
            try {
                CELLS = MethodHandles.lookup().findVarHandle(Owner.class, "cells", CellRef.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final int slot;
        private volatile CellRef cells;

        Owner(int slot) {
            this.slot = slot;
        }

        boolean isClosed() {
            return cells == CLOSED;
        }

        /**
         * Adds a cell (a worker's first get()); false if closed. Once per worker and WorkerLocal, so it also
         * unlinks, below the new head, the refs whose cell is gone (ended worker threads): a cleared ref
         * stays cleared, so a racing walker or sweeper never skips a live one (Counter.unlinkDeadBelow).
         */
        boolean register(Cell cell) {
            CellRef node = new CellRef(cell, null);
            for (;;) {
                CellRef h = cells;
                if (h == CLOSED) {
                    return false;
                }
                node.next = h;
                if (CELLS.compareAndSet(this, h, node)) {
                    for (CellRef pred = node; pred != null; pred = pred.next) {
                        CellRef succ = pred.next;
                        while (succ != null && succ.refersTo(null)) {
                            succ = succ.next;
                        }
                        if (succ != pred.next) {
                            pred.next = succ;
                        }
                    }
                    return true;
                }
            }
        }

        /** The cleaning: by the Cleaner once the WorkerLocal is unreachable, or by close(); at most once. */
        @Override
        public void run() {
            CellRef taken = (CellRef) CELLS.getAndSet(this, CLOSED);
            if (taken == CLOSED) {
                return;                                 // ran already (the Cleanable runs it once anyway)
            }
            for (CellRef r = taken; r != null; r = r.next) {
                Cell c = r.get();
                if (c != null) {
                    c.value = null;                     // the value is garbage now; the cell names a dead owner
                }
            }
            FREE_SLOTS.add(slot);                       // after the close: a new owner of the index sees no value
        }
    }

    /**
     * The slots of one worker thread; touched only by that thread (plain fields). The waiting-help seat's
     * slots have no owner thread: one seat holder at a time, handed over by the seat's CAS and release.
     * Each slot holds a {@link Cell}: a cell of another owner (a dead WorkerLocal whose index was reused)
     * reads as empty and is replaced, so a reused index starts from the new WorkerLocal's initial value.
     */
    static final class Slots {
        private final Thread owner;
        private Cell[] values = new Cell[8];

        Slots(Thread owner) {
            this.owner = owner;
        }

        /** For assertions (on under tests): only the owning worker thread, or a fiber on it, touches these. */
        private boolean onOwnerThread() {
            Thread carrier = FiberSupport.currentCarrier();
            if (owner != null && carrier != owner) {     // null: the waiting-help seat (WaitingHelp)
                throw new AssertionError("WorkerLocal slots of " + owner.getName() + " touched on " + carrier);
            }
            return true;
        }

        /** The value {@code who} keeps in slot {@code slot}, or null (none yet, cleared, or another's cell). */
        Object peek(int slot, Owner who) {
            assert onOwnerThread();
            Cell[] v = values;
            if (slot < v.length) {
                Cell c = v[slot];
                if (c != null && c.owner == who) {
                    return c.value;
                }
            }
            return null;
        }

        void put(int slot, Cell cell) {
            assert onOwnerThread();
            if (slot >= values.length) {
                values = Arrays.copyOf(values, Math.max(slot + 1, values.length * 2));
            }
            values[slot] = cell;                        // replaces a dead owner's cell, if any
        }
    }
}
