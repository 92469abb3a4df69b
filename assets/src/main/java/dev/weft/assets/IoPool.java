package dev.weft.assets;

import dev.weft.Counter;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A few platform threads that do the blocking reads of an {@link AssetSource}, so that jobs never do:
 * a job asks for a file with {@link #read}, which returns at once, and then parks its fiber in
 * {@link Pending#await()} until an I/O thread has the bytes. The worker runs other jobs meanwhile.
 *
 * <pre>{@code
 * IoPool.Pending<byte[]> read = io.read("tiny/textures/grass_64.png");  // any thread, returns at once
 * byte[] png = read.await();       // in a job: parks the fiber, resumes on a worker when the bytes are in
 * }</pre>
 *
 * <p>Hand-off: the I/O thread writes the result into the {@link Pending} and then decrements its
 * {@link Counter} (a full fence that publishes the result and wakes the parked fiber, which Weft then
 * queues as ready at its job's priority). Injected latency ({@link FaultPlan#latencyNanos}) delays the
 * start of the read with the executor's delay queue, so a slow "disk" holds no I/O thread while it waits
 * and latencies of concurrent reads overlap, as they would on a device with a deep queue.
 *
 * <p>Threading: {@link #read}, {@link #sizes} and the counters may be called from any thread. A fiber
 * waiting in {@code await} is woken with a cancellation if its job is cancelled; the read itself runs to
 * the end and its bytes are dropped (they are plain heap arrays: nothing leaks).
 */
public final class IoPool implements AutoCloseable {
    /** Prefix of the I/O threads' names. */
    public static final String THREAD_PREFIX = "weft-io-";

    private final AssetSource source;
    private final FaultPlan faults;
    private final ScheduledThreadPoolExecutor executor;
    private final AtomicLong reads = new AtomicLong();       // reads started (source.read calls)
    private final AtomicLong bytesRead = new AtomicLong();   // bytes delivered by successful reads
    private final Set<Pending<?>> inFlight = ConcurrentHashMap.newKeySet();  // added at schedule, removed at completion

    /** Default OS nice value of the I/O threads: below frame work, which they must never delay. */
    public static final int DEFAULT_NICE = 10;

    /**
     * @param threads how many reads may block at once (2 suits one SSD; reads beyond that queue)
     */
    public IoPool(AssetSource source, FaultPlan faults, int threads) {
        this(source, faults, threads, DEFAULT_NICE);
    }

    /**
     * @param nice Linux nice value of the I/O threads (0 keeps the default priority). Reading a jar entry
     *             inflates it, which costs CPU that should not come out of the frame's share.
     */
    public IoPool(AssetSource source, FaultPlan faults, int threads, int nice) {
        this.source = Objects.requireNonNull(source, "source");
        this.faults = Objects.requireNonNull(faults, "faults");
        if (threads < 1) {
            throw new IllegalArgumentException("need at least one I/O thread, got " + threads);
        }
        AtomicInteger ids = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(() -> {
                ThreadNice.lowerForever(nice);
                r.run();
            }, THREAD_PREFIX + ids.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
        this.executor = new ScheduledThreadPoolExecutor(threads, factory);
        this.executor.setRemoveOnCancelPolicy(true);
        this.executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    public AssetSource source() {
        return source;
    }

    public FaultPlan faults() {
        return faults;
    }

    /** Starts reading {@code path} (after its injected latency) and returns at once. */
    public Pending<byte[]> read(String path) {
        String name = source.displayName(path);
        return schedule("read " + name, faults.latencyNanos(path), () -> {
            faults.checkRead(path, name);
            reads.incrementAndGet();
            byte[] bytes = faults.corrupt(path, source.read(path));
            bytesRead.addAndGet(bytes.length);
            return bytes;
        });
    }

    /** Starts looking up the sizes of {@code paths} (-1 for missing files), in one request, with no latency. */
    public Pending<long[]> sizes(List<String> paths) {
        List<String> copy = List.copyOf(paths);
        return schedule("sizes of " + copy.size() + " files", 0L, () -> {
            long[] sizes = new long[copy.size()];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = source.size(copy.get(i));
            }
            return sizes;
        });
    }

    /**
     * The one place where a call is put on an I/O thread; the fiber parks later in {@link Pending#await()}.
     * When engine-jobs has {@code Jobs.blocking(executor, call)}, this method and {@code Pending} are what
     * to switch to it (the read is issued here at request time, so the switch must keep that read-ahead,
     * e.g. by starting the blocking call from the asset's job at once).
     */
    private <T> Pending<T> schedule(String what, long delayNanos, IoCall<T> call) {
        Pending<T> p = new Pending<>(what);
        inFlight.add(p);
        try {
            executor.schedule(() -> {
                p.complete(call);
                inFlight.remove(p);
            }, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            p.fail(new IOException(what + ": the I/O pool is closed", e));
            inFlight.remove(p);
        }
        return p;
    }

    /** Reads started so far (calls to {@link AssetSource#read}). */
    public long reads() {
        return reads.get();
    }

    /** Bytes delivered by reads so far. */
    public long bytesRead() {
        return bytesRead.get();
    }

    /** Stops the I/O threads; pending requests fail with an {@link IOException}. */
    @Override
    public void close() {
        executor.shutdownNow();                   // drops requests still in their latency delay
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("I/O threads still busy 10 s after close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (Pending<?> p : inFlight) {       // whoever waits for a dropped request gets an error, not a hang
                p.fail(new IOException(p.what + ": the I/O pool was closed before it ran"));
            }
            inFlight.clear();
        }
    }

    @Override
    public String toString() {
        return "IoPool[" + source + ", " + executor.getCorePoolSize() + " threads, " + reads() + " reads]";
    }

    @FunctionalInterface
    private interface IoCall<T> extends Callable<T> {
        @Override
        T call() throws IOException;
    }

    /**
     * One request in flight. {@link #await()} parks a fiber (blocks a plain thread) until an I/O thread has
     * completed it; the result is written before the counter drops, so the waiter sees it.
     */
    public static final class Pending<T> {
        private final String what;
        private final Counter done;      // 1 until completed; the I/O thread decrements it
        private volatile T value;        // written before done.decrement()
        private volatile IOException failure;
        private final AtomicBoolean completed = new AtomicBoolean();   // exactly one completion decrements

        Pending(String what) {
            this.what = what;
            this.done = new Counter(what);
            this.done.add(1);
        }

        void complete(IoCall<T> call) {
            if (completed.get()) {
                return;
            }
            T v = null;
            IOException f = null;
            try {
                v = call.call();
            } catch (IOException e) {
                f = e;
            } catch (RuntimeException | Error e) {
                f = new IOException(what + " failed: " + e, e);
            }
            finish(v, f);
        }

        void fail(IOException e) {
            finish(null, e);
        }

        private void finish(T v, IOException f) {
            if (completed.compareAndSet(false, true)) {
                value = v;
                failure = f;
                done.decrement();
            }
        }

        /**
         * Waits for the result: parks the calling fiber (its worker runs other jobs), blocks a platform thread.
         *
         * @throws IOException if the read failed (missing file, injected failure, pool closed)
         * @throws java.util.concurrent.CancellationException if the waiting job was cancelled
         */
        public T await() throws IOException {
            done.await();
            IOException f = failure;
            if (f != null) {
                throw f;
            }
            return value;
        }

        public boolean isDone() {
            return done.isDone();
        }

        @Override
        public String toString() {
            return "Pending[" + what + (isDone() ? ", done]" : "]");
        }
    }
}
