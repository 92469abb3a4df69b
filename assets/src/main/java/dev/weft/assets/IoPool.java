package dev.weft.assets;

import dev.weft.Jobs;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Callable;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
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
 * {@link FaultPlan#latencyNanos}) and its place in request order; {@code await} puts the read in the
 * I/O threads' delay queue, ordered by due time and then request order, so queued reads are served in
 * request order (for equal latencies) however
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
    private final ThreadPoolExecutor executor;               // its queue: a DelayQueue of Queued
    private final AtomicLong requests = new AtomicLong();    // request order, stamped by read() and sizes()
    private final AtomicLong reads = new AtomicLong();       // reads started (source.read calls)
    private final AtomicLong bytesRead = new AtomicLong();   // bytes delivered by successful reads
    private final Set<Queued> queued = ConcurrentHashMap.newKeySet();  // handed to the executor, not started
    private volatile boolean closed;                          // written before shutdownNow; read by every call

    /** Default OS nice value of the I/O threads: below frame work, which they must never delay. */
    public static final int DEFAULT_NICE = 10;

    /**
     * A pool whose I/O threads run at {@link #DEFAULT_NICE}.
     *
     * @param source  where the files come from; not null
     * @param faults  the latency and failures to inject into reads; not null
     * @param threads how many reads may block at once (2 suits one SSD; reads beyond that queue)
     * @throws IllegalArgumentException if {@code threads} is less than 1
     */
    public IoPool(AssetSource source, FaultPlan faults, int threads) {
        this(source, faults, threads, DEFAULT_NICE);
    }

    /**
     * A pool whose I/O threads run at the given nice value.
     *
     * @param source  where the files come from; not null
     * @param faults  the latency and failures to inject into reads; not null
     * @param threads how many reads may block at once (2 suits one SSD; reads beyond that queue)
     * @param nice Linux nice value of the I/O threads (0 keeps the default priority). Reading a jar entry
     *             inflates it, which costs CPU that should not come out of the frame's share.
     * @throws IllegalArgumentException if {@code threads} is less than 1
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
        // A delay queue ordered by (due time, request order): ScheduledThreadPoolExecutor clamps a due time
        // in the past to "now", which would serve reads in the order they were awaited.
        @SuppressWarnings("unchecked")
        BlockingQueue<Runnable> queue = (BlockingQueue<Runnable>) (BlockingQueue<?>) new DelayQueue<Queued>();
        this.executor = new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.NANOSECONDS, queue, factory);
        this.executor.prestartAllCoreThreads();   // so execute() always queues (a new worker would run it at once)
    }

    /**
     * The source the pool reads from.
     *
     * @return the source given at construction
     */
    public AssetSource source() {
        return source;
    }

    /**
     * The faults injected into the pool's reads.
     *
     * @return the fault plan given at construction
     */
    public FaultPlan faults() {
        return faults;
    }

    /**
     * Starts reading {@code path} (after its injected latency) and returns at once.
     *
     * @param path the source path to read
     * @return the pending read; {@link Pending#await()} it once
     */
    public Pending<byte[]> read(String path) {
        String name = source.displayName(path);
        return schedule("read " + name, faults.latencyNanos(path), () -> {
            faults.checkRead(path, name);
            reads.incrementAndGet();
            byte[] read = source.read(path);
            if (read == null) {                      // a game's source saying "not found" its own way
                throw new IOException(name + ": the AssetSource's read returned null; return the file's bytes, or"
                        + " throw NoSuchFileException for a file it does not have");
            }
            byte[] bytes = faults.corrupt(path, read);
            bytesRead.addAndGet(bytes.length);
            return bytes;
        });
    }

    /**
     * Starts looking up the sizes of {@code paths} (-1 for missing files), in one request, with no latency.
     *
     * @param paths the source paths to look up
     * @return the pending lookup, whose result holds one size in bytes per path, in order
     */
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
        return new Pending<>(this, what, System.nanoTime() + delayNanos, requests.getAndIncrement(), call);
    }

    /**
     * Puts {@code r} (a {@code Jobs.blocking} call) in the delay queue at {@code dueNanos}; after close it
     * runs at once on the caller, where the call fails fast (see {@link #checkOpen}).
     */
    private void execute(long dueNanos, long request, Runnable r) {
        Queued q = new Queued(r, dueNanos, request);
        queued.add(q);
        try {
            if (!closed) {
                executor.execute(q);
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

    /** Calls handed to the I/O threads and not started yet (for tests). */
    int queuedCalls() {
        return queued.size();
    }

    /**
     * Reads started so far (calls to {@link AssetSource#read}).
     *
     * @return the number of reads started
     */
    public long reads() {
        return reads.get();
    }

    /**
     * Bytes delivered by reads so far.
     *
     * @return the number of bytes delivered, in bytes
     */
    public long bytesRead() {
        return bytesRead.get();
    }

    /** For tests: every I/O thread has stopped (after {@link #close()}). */
    boolean isTerminated() {
        return executor.isTerminated();
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

    /**
     * A blocking call handed to the executor, due at {@code dueNanos}: runs once, by an I/O thread or,
     * after close, by the closer.
     */
    private final class Queued implements Runnable, Delayed {
        private final Runnable call;
        private final long dueNanos;
        private final long request;
        private final AtomicBoolean ran = new AtomicBoolean();   // CAS: the I/O thread or close, once

        Queued(Runnable call, long dueNanos, long request) {
            this.call = call;
            this.dueNanos = dueNanos;
            this.request = request;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Queued o = (Queued) other;
            int byDue = Long.compare(dueNanos - o.dueNanos, 0);   // wrap-safe, like System.nanoTime
            return byDue != 0 ? byDue : Long.compare(request, o.request);
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
     *
     * @param <T> the result type: {@code byte[]} for a read, {@code long[]} for sizes
     */
    public static final class Pending<T> {
        private final IoPool pool;
        private final String what;
        private final long dueNanos;
        private final long request;
        private final IoCall<T> call;

        Pending(IoPool pool, String what, long dueNanos, long request, IoCall<T> call) {
            this.pool = pool;
            this.what = what;
            this.dueNanos = dueNanos;
            this.request = request;
            this.call = call;
        }

        /**
         * Runs the read on an I/O thread at its due time and waits for it: parks the calling fiber (its
         * worker runs other jobs); outside a job, reads on the calling thread.
         *
         * @return the read's result
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
                return Jobs.blocking(r -> pool.execute(dueNanos, request, r), checked);
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
