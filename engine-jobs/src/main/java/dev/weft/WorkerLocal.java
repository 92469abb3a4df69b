package dev.weft;

import dev.weft.internal.FiberSupport;
import java.util.Arrays;
import java.util.Objects;
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
 * <p>Threading: only the worker thread itself touches its slots (plain reads and writes, no fences);
 * values are kept until the worker thread ends ({@link JobSystem#close()}).
 *
 * @param <T> the value type
 */
public final class WorkerLocal<T> {
    private static final AtomicInteger NEXT_SLOT = new AtomicInteger();

    private final int slot;
    private final Supplier<? extends T> initial;
    private final ThreadLocal<T> offWorker;

    private WorkerLocal(Supplier<? extends T> initial) {
        this.initial = initial;
        this.slot = NEXT_SLOT.getAndIncrement();
        this.offWorker = ThreadLocal.withInitial(this::create);
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
     */
    @SuppressWarnings("unchecked")
    public T get() {
        if (FiberSupport.currentCarrier() instanceof WorkerThread carrier) {   // a job on a Weft worker
            Object v = carrier.workerLocals.peek(slot);
            if (v != null) {
                return (T) v;
            }
            T made = create();
            // The supplier may have parked and the fiber moved: store on the worker we are on now.
            if (FiberSupport.currentCarrier() instanceof WorkerThread now) {
                return now.workerLocals.putIfAbsent(slot, made);
            }
            return made;
        }
        WaitingHelp seat = WaitingHelp.current();       // a job a waiting thread runs: worker workerCount()
        if (seat != null) {
            Object v = seat.workerLocals.peek(slot);
            return v != null ? (T) v : seat.workerLocals.putIfAbsent(slot, create());
        }
        return offWorker.get();
    }

    T create() {
        T value = initial.get();
        if (value == null) {
            throw new NullPointerException("WorkerLocal's initial supplier returned null; it must make a value");
        }
        return value;
    }

    /**
     * The slots of one worker thread; touched only by that thread (plain fields). The waiting-help seat's
     * slots have no owner thread: one seat holder at a time, handed over by the seat's CAS and release.
     */
    static final class Slots {
        private final Thread owner;
        private Object[] values = new Object[8];

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

        Object peek(int slot) {
            assert onOwnerThread();
            Object[] v = values;
            return slot < v.length ? v[slot] : null;
        }

        @SuppressWarnings("unchecked")
        <T> T putIfAbsent(int slot, T value) {
            assert onOwnerThread();
            if (slot >= values.length) {
                values = Arrays.copyOf(values, Math.max(slot + 1, values.length * 2));
            }
            Object old = values[slot];
            if (old != null) {
                return (T) old;
            }
            values[slot] = value;
            return value;
        }
    }
}
