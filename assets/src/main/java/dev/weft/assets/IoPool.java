package dev.weft.assets;

import dev.weft.Jobs;
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
 * {@link Pending#await()}, a {@link Jobs#blocking(java.util.concurrent.Executor, Callable)} call on these
 * threads, until an I/O thread has the bytes. The worker runs other jobs meanwhile.
 *
 * <pre>{@code
 * IoPool.Pending<byte[]> read = io.read("tiny/textures/grass_64.png");  // any thread, returns at once
 * byte[] png = read.await();       // in a job: parks the fiber, resumes on a worker when the bytes are in
 * }</pre>
 *
 * <p>Order: {@link #read} stamps the request with its due time (now plus its injected latency,
 * {@link FaultPlan#latencyNanos}); {@code await} hands the read to the executor's delay queue at that
 * absolute time, so queued reads are served in request order (ties: the order they were awaited) however
 * late their jobs got to {@code await}, a slow "disk" holds no I/O thread while it waits, and latencies
 * of concurrent reads overlap, as on a device with a deep queue. A read starts only once its job awaits
 * it: the asset manager's load jobs await first thing.
 *
 * <p>Threading: {@link #read}, {@link #sizes} and the counters may be called from any thread. Outside a
 * job {@code await} runs the read on the calling thread (as {@code Jobs.blocking} does). A fiber waiting
 * in {@code await} is woken with a cancellation if its job is cancelled; the read itself runs to the end
 * and its bytes are dropped (plain heap arrays: nothing leaks). {@link #close} fails every read still
 * queued with an {@link IOException}, and later ones too, so no waiter hangs.
 */
public final class IoPool implements AutoCloseable {
    /** Prefix of the I/O threads' names. */
    public static final String THREAD_PREFIX = "weft-io-";

    private final AssetSource source;
    private final FaultPlan faults;
    private final ScheduledThreadPoolExecutor executor;
    private final AtomicLong reads = new AtomicLong();       // reads started (source.read calls)
    private final AtomicLong bytesRead = new AtomicLong();   // bytes delivered by successful reads
    private final Set<Queued> queued = ConcurrentHashMap.newKeySet();  // handed to the executor, not started
    private volatile boolean closed;                          // written before shutdownNow; read by every call

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

    private <T> Pending<T> schedule(String what, long delayNanos, IoCall<T> call) {
        return new Pending<>(this, what, System.nanoTime() + delayNanos, call);
    }

    /**
     * Puts {@code r} (a {@code Jobs.blocking} call) in the delay queue at {@code dueNanos}; after close it
     * runs at once on the caller, where the call fails fast (see {@link #checkOpen}).
     */
    private void execute(long dueNanos, Runnable r) {
        Queued q = new Queued(r);
        queued.add(q);
        try {
            if (!closed) {
                executor.schedule(q, dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
                return;
            }
        } catch (RejectedExecutionException e) {
            // closed meanwhile: fall through
        }
        q.run();
    }

    private void checkOpen(String what) throws IOException {
        if (closed) {
            throw new IOException(what + ": the I/O pool was closed before it ran");
        }
    }

    /** Reads started so far (calls to {@link AssetSource#read}). */
    public long reads() {
        return reads.get();
    }

    /** Bytes delivered by reads so far. */
    public long bytesRead() {
        return bytesRead.get();
    }

    /** Stops the I/O threads; reads still queued (or asked for later) fail with an {@link IOException}. */
    @Override
    public void close() {
        closed = true;                            // volatile: every later call checks it first
        executor.shutdownNow();                   // drops requests still in their latency delay
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("I/O threads still busy 10 s after close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (Queued q : queued) {             // whoever waits for a dropped read gets an error, not a hang
                q.run();
            }
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

    /** A blocking call handed to the executor: runs once, by an I/O thread or, after close, by the closer. */
    private final class Queued implements Runnable {
        private final Runnable call;
        private final AtomicBoolean ran = new AtomicBoolean();   // CAS: the I/O thread or close, once

        Queued(Runnable call) {
            this.call = call;
        }

        @Override
        public void run() {
            if (ran.compareAndSet(false, true)) {
                queued.remove(this);
                call.run();
            }
        }
    }

    /**
     * One requested read: its due time is fixed by {@link #read}, the read itself runs when a job
     * {@link #await}s it. Await once.
     */
    public static final class Pending<T> {
        private final IoPool pool;
        private final String what;
        private final long dueNanos;
        private final IoCall<T> call;

        Pending(IoPool pool, String what, long dueNanos, IoCall<T> call) {
            this.pool = pool;
            this.what = what;
            this.dueNanos = dueNanos;
            this.call = call;
        }

        /**
         * Runs the read on an I/O thread at its due time and waits for it: parks the calling fiber (its
         * worker runs other jobs); outside a job, reads on the calling thread.
         *
         * @throws IOException if the read failed (missing file, injected failure, pool closed)
         * @throws java.util.concurrent.CancellationException if the waiting job was cancelled
         */
        public T await() throws IOException {
            Callable<T> checked = () -> {
                pool.checkOpen(what);
                try {
                    return call.call();
                } catch (RuntimeException e) {
                    throw new IOException(what + " failed: " + e, e);
                }
            };
            try {
                return Jobs.blocking(r -> pool.execute(dueNanos, r), checked);
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException(what + " failed: " + e, e);
            }
        }

        @Override
        public String toString() {
            return "Pending[" + what + "]";
        }
    }
}
