package dev.weft.assets;

import dev.weft.Counter;
import dev.weft.JobGroup;
import dev.weft.Jobs;
import dev.weft.Priority;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs the CPU-heavy steps of loading (PNG decode, OBJ parse, BVH build) as BACKGROUND jobs, but at most
 * {@code limit} of them at once, so that a level load never occupies every worker with work that cannot
 * be interrupted (one stb call on a 2048² PNG takes tens of milliseconds): the remaining workers stay
 * free for frame work. Weft has no preemption, so this bound is what keeps the frame rate while loading.
 *
 * <p>Mechanism: {@link #active} counts the slots in use (at most {@code limit}). A caller that finds a
 * free slot and an empty queue takes the slot and runs its work inline, on its own fiber (no hand-off,
 * no park). Otherwise it queues a {@link Task} on a lock-free queue and parks on the task's counter; up
 * to {@code limit} drain jobs (in a group that is never cancelled, so cancelling one asset cannot strand
 * the queue) take tasks until the queue is empty. Whoever gives a slot back decrements {@code active}
 * and then re-reads the queue, and a producer offers and then reads {@code active} (sequentially
 * consistent atomics), so a queued task is always seen by someone. Work never waits, so a slot is never
 * held by a parked fiber.
 *
 * <p>While a task runs, its carrier thread runs at a lower OS priority ({@link ThreadNice}), so that on
 * a machine with no idle core the frame worker and the main thread still win the CPU.
 *
 * <p>Ownership of a result whose caller gave up (its job was cancelled while it waited): the task and the
 * caller race on one CAS; if the caller wins, the task disposes of the result it made (for example closes
 * a {@code TextureData}); if the task wins, the caller disposes of it. Either way it is freed once.
 */
final class DecodeLane {
    private final JobGroup group;                     // drain jobs only; never cancelled
    private final int limit;
    private final ConcurrentLinkedQueue<Task<?>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger active = new AtomicInteger();   // drain jobs running or submitted; <= limit
    // Queued tasks not yet run or skipped (abandoned ones too: a drainer still takes them), for awaitIdle.
    private final Counter queuedTasks = new Counter("decode lane tasks");
    private final int nice;                           // OS priority of a carrier while it runs a task; 0 = unchanged

    DecodeLane(JobGroup group, int limit, int nice) {
        if (limit < 1) {
            throw new IllegalArgumentException("decode lane needs at least one slot, got " + limit);
        }
        this.group = Objects.requireNonNull(group, "group");
        this.limit = limit;
        this.nice = nice;
    }

    int limit() {
        return limit;
    }

    /**
     * Waits at most {@code timeout} until every queued task has run or been skipped, including tasks whose
     * caller was cancelled and left (their result is freed by the drainer). For the manager's close.
     * Once {@code jobSystemTerminated} says so, the tasks still queued are dropped unrun: their drain jobs
     * were cancelled by {@code shutdownNow()}, and no worker is left to run them.
     *
     * @return false on timeout
     */
    boolean awaitIdle(Duration timeout, BooleanSupplier jobSystemTerminated) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (;;) {
            if (jobSystemTerminated.getAsBoolean()) {
                dropQueued();                         // no worker is left to drain them
            }
            long left = deadline - System.nanoTime();
            if (queuedTasks.await(Duration.ofNanos(Math.max(0L, Math.min(left, IDLE_CHECK_NANOS))))) {
                return true;
            }
            if (left <= IDLE_CHECK_NANOS) {
                return false;
            }
        }
    }

    // How often awaitIdle looks whether the job system stopped (shutdownNow cancels queued drain jobs).
    private static final long IDLE_CHECK_NANOS = 50_000_000L;

    /**
     * After the job system terminated: takes every task still queued and ends it unrun. They never ran,
     * so they hold nothing to free; their callers' jobs were cancelled or ended with the system. A poll
     * takes each task once, so this is safe beside a drainer too.
     */
    private void dropQueued() {
        Task<?> t;
        while ((t = queue.poll()) != null) {
            t.dropUnrun();
            queuedTasks.decrement();
        }
    }

    /** Tasks waiting for a slot (a snapshot; for tests). */
    int queued() {
        return queue.size();
    }

    /**
     * Runs {@code work} in the lane and waits for it (parking the calling fiber).
     *
     * @param dispose frees the result if the caller is cancelled before it takes it
     * @throws Exception whatever {@code work} threw
     * @throws CancellationException if the calling job was cancelled while it waited
     */
    <T> T call(Callable<T> work, Consumer<? super T> dispose) throws Exception {
        if (queue.isEmpty() && tryTakeSlot()) {
            try (ThreadNice.Restore _ = DecodeCheckpoint.lowerWhile(nice)) {
                return work.call();                   // a free slot and nobody queued: run it right here
            } finally {
                active.decrementAndGet();
                spawnIfNeeded();                      // like a drainer: released a slot, so look at the queue
            }
        }
        Task<T> t = new Task<>(work, dispose, nice);
        queuedTasks.add(1);
        queue.offer(t);
        spawnIfNeeded();
        try {
            t.done.await();
        } catch (CancellationException e) {
            t.abandon();
            throw e;
        }
        return t.take();
    }

    private boolean tryTakeSlot() {
        for (;;) {
            int a = active.get();
            if (a >= limit) {
                return false;
            }
            if (active.compareAndSet(a, a + 1)) {
                return true;
            }
        }
    }

    private void spawnIfNeeded() {
        for (;;) {
            int a = active.get();
            if (a >= limit || queue.isEmpty()) {
                return;
            }
            if (active.compareAndSet(a, a + 1)) {
                group.run(Priority.BACKGROUND, "decode lane", this::drain, null);
                return;
            }
        }
    }

    private void drain() {
        for (;;) {
            Task<?> t;
            while ((t = queue.poll()) != null) {
                try {
                    t.run();
                } finally {
                    queuedTasks.decrement();          // after its dispose: the task's memory is freed
                }
                // Between tasks: a PNG decode is one native call that cannot yield, but a drain runs
                // task after task, and without this a burst of small decodes held its worker for 15 ms
                // while a frame waited (demo trace). At normal nice here: each task lowers its own.
                Jobs.checkpoint();
            }
            active.decrementAndGet();
            if (queue.isEmpty()) {
                return;
            }
            int a = active.get();                     // work arrived after our last poll: take a slot back
            if (a >= limit || !active.compareAndSet(a, a + 1)) {
                return;                               // another drainer holds the slot and will see it
            }
        }
    }

    private static final class Task<T> {
        private static final int WAITING = 0, DELIVERED = 1, ABANDONED = 2;

        final Counter done = new Counter("decode");
        private final Callable<T> work;
        private final Consumer<? super T> dispose;
        private final AtomicInteger state = new AtomicInteger(WAITING);
        private final int nice;
        private T result;                             // written before done.decrement()
        private Throwable failure;

        Task(Callable<T> work, Consumer<? super T> dispose, int nice) {
            this.work = work;
            this.dispose = dispose;
            this.nice = nice;
            done.add(1);
        }

        void run() {
            try {
                if (state.get() == ABANDONED) {
                    return;                           // nobody wants it any more: skip the work
                }
                T r;
                try (ThreadNice.Restore _ = DecodeCheckpoint.lowerWhile(nice)) {
                    r = work.call();
                } catch (Throwable e) {
                    failure = e;
                    return;
                }
                result = r;
                if (!state.compareAndSet(WAITING, DELIVERED) && r != null) {
                    dispose.accept(r);                // the caller left while we worked
                }
            } finally {
                done.decrement();
            }
        }

        /** Ends the task without running it: its caller, if still waiting, gets a CancellationException. */
        void dropUnrun() {
            failure = new CancellationException("the job system stopped before this decode ran");
            done.decrement();
        }

        void abandon() {
            if (!state.compareAndSet(WAITING, ABANDONED) && state.get() == DELIVERED && result != null) {
                dispose.accept(result);               // delivered just as we were cancelled: ours to free
            }
        }

        T take() throws Exception {
            if (failure != null) {
                if (failure instanceof Exception e) {
                    throw e;
                }
                throw (Error) failure;
            }
            return result;
        }
    }
}
