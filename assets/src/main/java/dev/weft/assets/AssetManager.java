package dev.weft.assets;

import dev.weft.Counter;
import dev.weft.JobGroup;
import dev.weft.JobSystem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loads textures, meshes and collision BVHs as Weft jobs, once per asset however often it is requested,
 * and unloads each when its last {@link AssetRef} is released.
 *
 * <pre>{@code
 * try (JobSystem jobs = JobSystem.create();
 *      AssetManager assets = AssetManager.builder(jobs).uploader(gpu).build()) {
 *     AssetRef<LoadedMesh> rock = assets.mesh("demo/meshes/rock.obj");          // returns at once
 *     AssetRef<LoadedCollision> rockCol = assets.collision("demo/meshes/rock.obj");
 *     while (!rockCol.isDone()) {                  // the game loop; uploads run in runMainThreadJobs
 *         jobs.runMainThreadJobs(2_000_000);
 *         drawLoadingScreen(assets.progress().fraction());
 *     }
 *     ...
 *     rock.release();                              // last claim: GPU objects freed by a main-thread job
 *     rockCol.release();
 * }
 * }</pre>
 *
 * <p>Per asset, one BACKGROUND job in the asset's own {@link JobGroup}: read the file on an
 * {@link IoPool} thread (the fiber parks), decode in the {@link DecodeLane} (at most
 * {@link Builder#maxParallelDecodes} at once), and, when it was given a {@link GpuUploader}, upload with
 * {@link JobSystem#onMainThread} (the fiber parks until the main thread ran it) and free the CPU pixels.
 * A collision job requests its mesh like anyone else and builds the BVH when the mesh is there. Any
 * failure (missing file, I/O error, corrupt PNG, malformed OBJ, failed upload) gives a placeholder
 * and a {@link LoadFailure} instead; the asset never fails as a whole.
 *
 * <p>Threading: every public method may be called from any thread; see {@link AssetRef} for waiting.
 * With an uploader the main thread must keep calling {@link JobSystem#runMainThreadJobs} (uploads and
 * frees run there), and {@link #close()} must come before the job system's close.
 *
 * <h2>Design note (maintainers)</h2>
 *
 * <h3>Entries and dedup</h3>
 * {@link #entries} maps an {@link AssetId} to its {@link AssetEntry}. A request does
 * {@code computeIfAbsent} (which only allocates; no job is submitted inside the map's lock), then
 * retains the entry, then starts it if it is new ({@code started} CAS: exactly one load job per entry).
 * Two concurrent requests therefore meet on one entry and one load.
 *
 * <h3>Reference counts and unloading</h3>
 * {@code AssetEntry.refs} counts unreleased {@link AssetRef}s and becomes {@code DEAD} (-1) by a CAS from 0
 * when the last one goes; retaining is a CAS from a non-negative value, so an entry is either revived
 * by a request or dead, never both. A dead entry is removed from the map (a later request makes a new
 * one and loads again), its group is cancelled (an unfinished load stops at its next wait), and it is
 * cleaned up: {@code dead} and {@code loadEnded} are each written (volatile) and then the other read,
 * by the releaser and the load job respectively, so at least one of them sees both and cleans up
 * ({@link AssetLoads}), once by a CAS.
 *
 * <h3>Native memory</h3>
 * Every decoded asset's native memory ({@link AssetCodec#nativeMemory}: a {@link TextureData}) goes into
 * {@link MainThreadTransfers#liveNativeMemory} and is closed by whoever removes
 * it from there (once). Headless it lives until cleanup. With uploads, the upload main-thread job and
 * the waiting load job race on one CAS for it: the job takes it (and frees it after uploading, or after
 * skipping a dead asset's upload), or the load job, woken by a cancellation, abandons it and frees it
 * itself; so it is never freed while the main thread reads it. A decode whose waiter was cancelled is
 * freed by the lane (see {@link DecodeLane}).
 *
 * <h3>GPU objects</h3>
 * {@code AssetEntry.gpu} is touched only on the main thread: set by the upload job, taken and released by the
 * free job that cleanup queues. An upload job belongs to its asset's group (Weft puts a main-thread job
 * in its submitter's group), so a dead asset's queued upload is cancelled; one that runs anyway (the
 * group was not cancelled in time) checks {@code dead} first. The free job is queued from a job of the
 * manager's {@code housekeeping} group, which is never cancelled, and the mailbox is FIFO, so it runs
 * after any upload of the same asset.
 *
 * <h3>Load jobs</h3>
 * {@link AssetLoads} starts and runs each entry's one load job and counts the loads; see its note for the
 * order of reads and when a load counts as ended.
 */
public final class AssetManager implements AutoCloseable {
    private final JobSystem jobs;
    final IoPool io;
    private final boolean ownsIo;
    final GpuUploader uploader;            // null: no uploads
    final CodecRegistry codecs;
    final DecodeLane lane;
    private final JobGroup housekeeping;           // never cancelled: decode lane drains, queueing GPU frees
    private final int backgroundNice;
    private final ConcurrentHashMap<AssetId, AssetEntry> entries = new ConcurrentHashMap<>();
    final MainThreadTransfers transfers;            // native memory, uploads, GPU frees
    final AssetLoads loads;                         // the load jobs and their counts
    // request() calls between their closed check and their return: close() waits for them before it sweeps
    // the entries (see close()). Incremented before the check, so close() sees the call or the call sees closed.
    private final AtomicInteger requestsInFlight = new AtomicInteger();
    private volatile boolean closed;

    private AssetManager(Builder b) {
        this.jobs = b.jobs;
        this.ownsIo = b.io == null;
        this.io = b.io != null ? b.io : new IoPool(b.source, b.faults, b.ioThreads, b.backgroundNice);
        this.uploader = b.uploader;
        this.codecs = b.codecs;
        int decodes = b.maxParallelDecodes > 0 ? b.maxParallelDecodes : Math.max(1, jobs.workerCount() - 1);
        this.housekeeping = jobs.newGroup("asset manager");
        this.backgroundNice = ThreadNice.supported() ? b.backgroundNice : 0;
        this.lane = new DecodeLane(housekeeping, decodes, b.backgroundNice);
        this.transfers = new MainThreadTransfers(jobs, uploader, housekeeping);
        this.loads = new AssetLoads(this, housekeeping);
    }

    /**
     * Settings for a manager on {@code jobs}.
     *
     * @param jobs the job system loads run on; not null
     * @return a new builder with the defaults
     */
    public static Builder builder(JobSystem jobs) {
        return new Builder(jobs);
    }

    /**
     * The job system the manager's loads run on.
     *
     * @return the job system given to {@link #builder(JobSystem)}
     */
    public JobSystem jobs() {
        return jobs;
    }

    /**
     * The I/O pool that reads the manager's files: its own, or the one given to {@link Builder#io}.
     *
     * @return the manager's I/O pool
     */
    public IoPool io() {
        return io;
    }

    /**
     * True if loads upload to the GPU (a {@link GpuUploader} was given).
     *
     * @return true if a {@link GpuUploader} was given
     */
    public boolean uploadsToGpu() {
        return uploader != null;
    }

    /**
     * How many decodes may run at once.
     *
     * @return the most decodes that run at once
     */
    public int maxParallelDecodes() {
        return lane.limit();
    }

    /**
     * The nice value decodes and I/O run at (0 if priorities are unavailable here or were turned off).
     *
     * @return the nice value, 0 to 19
     */
    public int backgroundNice() {
        return backgroundNice;
    }

    /**
     * Requests the texture at {@code path}; returns at once.
     *
     * @param path the texture's path in the manager's source
     * @return a new reference to the texture, shared with other requests of the same path; release it when
     *         done
     * @throws IllegalStateException if this manager was closed
     */
    public AssetRef<LoadedTexture> texture(String path) {
        return request(AssetId.texture(path), LoadedTexture.class);
    }

    /**
     * Requests the mesh at {@code path}; returns at once.
     *
     * @param path the mesh's path in the manager's source
     * @return a new reference to the mesh, shared with other requests of the same path; release it when done
     * @throws IllegalStateException if this manager was closed
     */
    public AssetRef<LoadedMesh> mesh(String path) {
        return request(AssetId.mesh(path), LoadedMesh.class);
    }

    /**
     * Requests the collision BVH of the mesh at {@code meshPath} (and so the mesh); returns at once.
     *
     * @param meshPath the mesh's path in the manager's source
     * @return a new reference to the collision BVH; release it when done
     * @throws IllegalStateException if this manager was closed
     */
    public AssetRef<LoadedCollision> collision(String meshPath) {
        return request(AssetId.collision(meshPath), LoadedCollision.class);
    }

    /**
     * Requests any asset; what it loads as follows {@code id.kind()} and its codec.
     *
     * @param id what to load
     * @return a new reference to the asset; release it when done
     * @throws IllegalStateException if this manager was closed
     * @throws NullPointerException if {@code id} is null
     */
    public AssetRef<? extends LoadedAsset> request(AssetId id) {
        Objects.requireNonNull(id, "AssetManager.request(null): pass what to load, e.g. AssetId.texture(\"tiny/textures/grass_64.png\")");
        return request(id, LoadedAsset.class);
    }

    <T extends LoadedAsset> AssetRef<T> request(AssetId id, Class<T> type) {
        requestsInFlight.incrementAndGet();
        try {
            return requestOpen(id, type);
        } finally {
            requestsInFlight.decrementAndGet();
        }
    }

    private <T extends LoadedAsset> AssetRef<T> requestOpen(AssetId id, Class<T> type) {
        for (;;) {
            checkOpen(id.toString());
            AssetEntry e = entries.computeIfAbsent(id, k -> new AssetEntry(k, jobs.newGroup("asset " + k)));
            if (e.retain()) {
                AssetRef<T> ref = new AssetRef<>(this, e, type);
                try {
                    loads.start(e);
                } catch (RuntimeException x) {
                    ref.release();
                    throw x;
                }
                return ref;
            }
            entries.remove(id, e);                  // died between the lookup and the retain: make a new one
        }
    }

    /** Refuses work for a closed manager: {@code what} names what the caller asked for. */
    void checkOpen(String what) {
        if (closed) {
            throw new IllegalStateException("asset manager is closed; cannot load " + what
                    + " (make a new AssetManager, or close it only when the game stops loading)");
        }
    }

    /** True once {@link #close()} began (volatile). */
    boolean isClosed() {
        return closed;
    }

    void release(AssetEntry e) {
        if (e.release()) {
            entries.remove(e.id, e);
            e.dead = true;                          // volatile write, then loads.died reads loadEnded
            e.group.cancel();
            loads.died(e);
        }
    }

    /** Load jobs running now, those of released assets too (tests). */
    long loadsRunning() {
        return loads.running();
    }

    /** The live entry of {@code id}, or null (tests: to wait for a load's step). */
    AssetEntry entryForTests(AssetId id) {
        return entries.get(id);
    }

    /** The ids with a live entry now (tests: which assets are still held). */
    java.util.Set<AssetId> entryIds() {
        return java.util.Set.copyOf(entries.keySet());
    }

    String displayName(AssetId id) {
        return id.isPlaceholder() ? id.path() : io.source().displayName(id.path());
    }

    // ------------------------------------------------------------------ observation

    /**
     * Progress over every load this manager started (bytes read, assets finished); totals grow with requests.
     *
     * @return a snapshot of the progress of every load so far
     */
    public LoadProgress.Snapshot progress() {
        return loads.progress();
    }

    /**
     * Counters for tests, logs and leak checks.
     *
     * @return a snapshot of the counters
     */
    public Stats stats() {
        return new Stats(entries.size(), loads.started(), io.reads(), io.bytesRead(), transfers.liveNativeMemory.size(),
                transfers.nativeMemoryFreed.get());
    }

    /**
     * A manager's counters, from {@link #stats()}.
     *
     * @param entries          assets currently held (loaded or loading)
     * @param loadsStarted     load jobs ever started (a deduplicated request starts none)
     * @param reads            file reads ever started
     * @param bytesRead        file bytes ever read
     * @param liveTextureData  decoded textures whose native memory is not freed yet
     * @param textureDataFreed decoded textures freed so far
     */
    public record Stats(int entries, long loadsStarted, long reads, long bytesRead, int liveTextureData,
                        long textureDataFreed) {}

    /**
     * Unloads everything (as if every reference were released), waits up to 10 s in all for the loads
     * still running to stop (those of assets released earlier too, and their decodes queued in the decode
     * lane), and stops the I/O threads if this manager made them. After it returns, {@link #stats()} does
     * not change any more: no decode of this manager still allocates or frees. On the main thread the wait
     * keeps running main-thread jobs; with an uploader, run them once more afterwards for the queued frees
     * (every GPU free is queued by the time this returns, so once is enough; {@code jobs.close()} on the
     * main thread runs them too).
     * If the job system was closed first, the GPU frees cannot be queued: close() says on stderr how many
     * GPU objects were not freed (it does not throw: it often runs after the game has already failed).
     */
    @Override
    public void close() {
        closed = true;
        long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
        // A request that passed its closed check puts its entry in the map and starts it after that check:
        // sweeping before it did left the entry alive after close (its load and GPU object too), or killed
        // an entry nobody had started, whose end close() then waited 10 s for. A request never blocks, so
        // this wait is short; both sides write then read (volatile), so no request slips past both.
        while (requestsInFlight.get() != 0 && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
            Thread.yield();
        }
        List<AssetEntry> killed = new ArrayList<>();
        for (AssetEntry e : entries.values()) {
            if (e.kill()) {
                entries.remove(e.id, e);
                e.dead = true;
                e.group.cancel();
                loads.died(e);
                killed.add(e);
            }
        }
        try {
            for (AssetEntry e : killed) {
                awaitEnded(e.done, deadline);
            }
            // An asset released before close() left the map, but its load job may still be decoding: it
            // runs to its next cancellation check (a PNG decode is one native call) and frees what it made.
            loads.awaitEnded(deadline);
            // A task its cancelled caller abandoned still runs; after shutdownNow() none of them can.
            lane.awaitIdle(untilDeadline(deadline), jobs::isTerminated);
            // Every cleanup above has submitted the job that queues its GPU free (before loadsRunning came
            // down); wait until each has queued it, so that one more runMainThreadJobs frees everything.
            awaitEnded(transfers.freesBeingQueued, deadline);
        } finally {
            if (ownsIo) {
                io.close();
            }
        }
        // Printed, not thrown: close() often runs in a finally after the game already failed (a watchdog
        // gave up and stopped the job system), and an exception here would hide that failure.
        int refused = transfers.gpuFreesRefused.get();
        if (refused > 0) {
            System.err.println("weft-assets: " + refused + " GPU object(s) of this asset manager were not freed: a"
                    + " GPU free runs as a main-thread job, and the job system refused it (it was closed or stopped"
                    + " first). Close the AssetManager, and release its assets, before the JobSystem"
                    + " (try-with-resources does this when the manager is declared after the job system), or free"
                    + " them with the renderer's own teardown.");
        }
    }

    /** Waits for a load to end; its failure (a job that could not start, say) is its asset's, not close's. */
    static void awaitEnded(Counter loads, long deadlineNanos) {
        try {
            loads.await(untilDeadline(deadlineNanos));
        } catch (dev.weft.JobFailedException alreadyReported) {
            // the asset's AssetRef reports it; close still waits for the others and stops the I/O threads
        }
    }

    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private static Duration untilDeadline(long deadlineNanos) {
        return Duration.ofNanos(Math.max(0L, deadlineNanos - System.nanoTime()));
    }

    @Override
    public String toString() {
        return "AssetManager[" + entries.size() + " assets, " + (uploader != null ? "uploads" : "headless") + ", "
                + lane.limit() + " decode slots, " + io + "]";
    }

    /** Settings; see {@link AssetManager#builder}. */
    public static final class Builder {
        private final JobSystem jobs;
        private AssetSource source = AssetSource.classpath();
        private FaultPlan faults = FaultPlan.NONE;
        private int ioThreads = 2;
        private IoPool io;
        private GpuUploader uploader;
        private CodecRegistry codecs = CodecRegistry.defaults();
        private int maxParallelDecodes;
        private int backgroundNice = IoPool.DEFAULT_NICE;

        private Builder(JobSystem jobs) {
            this.jobs = Objects.requireNonNull(jobs, "jobs");
        }

        /**
         * Where files come from (default: the classpath's levels).
         *
         * @param source where files come from; not null
         * @return this builder
         */
        public Builder source(AssetSource source) {
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Injected latency and failures (default none).
         *
         * @param faults the latency and failures to inject into reads; not null
         * @return this builder
         */
        public Builder faults(FaultPlan faults) {
            this.faults = Objects.requireNonNull(faults, "faults");
            return this;
        }

        /**
         * I/O threads to make (default 2).
         *
         * @param threads the number of I/O threads; 1 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code threads} is less than 1
         */
        public Builder ioThreads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("need at least one I/O thread, got " + threads);
            }
            this.ioThreads = threads;
            return this;
        }

        /**
         * Uses an existing pool (not closed by the manager) instead of source/faults/ioThreads.
         *
         * @param io the pool to read through; not null
         * @return this builder
         */
        public Builder io(IoPool io) {
            this.io = Objects.requireNonNull(io, "io");
            return this;
        }

        /**
         * Uploads through this on the main thread (and frees CPU pixels after upload); with null (the
         * default, the headless path) nothing is uploaded and pixels live until unload.
         *
         * @param uploader the uploader, or null for no uploads
         * @return this builder
         */
        public Builder uploader(GpuUploader uploader) {
            this.uploader = uploader;
            return this;
        }

        /**
         * Decoders by kind and file extension (default {@link CodecRegistry#defaults()}: PNG and OBJ).
         *
         * @param codecs the codecs that decode each kind and extension; not null
         * @return this builder
         */
        public Builder codecs(CodecRegistry codecs) {
            this.codecs = Objects.requireNonNull(codecs, "codecs");
            return this;
        }

        /**
         * At most this many decodes (PNG, OBJ, BVH) run at once; default workers − 1 (at least 1), which
         * keeps a worker free for frame work. Use the worker count for loading screens that need no frames.
         *
         * @param n the most decodes that run at once; 1 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is less than 1
         */
        public Builder maxParallelDecodes(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxParallelDecodes must be >= 1, got " + n);
            }
            this.maxParallelDecodes = n;
            return this;
        }

        /**
         * Linux nice value for background CPU work: the I/O threads always, and a worker while it decodes
         * (default {@value IoPool#DEFAULT_NICE}; 0 leaves priorities alone). Decoding then yields the CPU
         * to frame work when no core is idle. A no-op where priorities cannot be restored; see ThreadNice.
         *
         * @param nice the nice value, 0 to 19
         * @return this builder
         * @throws IllegalArgumentException if {@code nice} is outside 0 to 19
         */
        public Builder backgroundNice(int nice) {
            if (nice < 0 || nice > 19) {
                throw new IllegalArgumentException("nice must be 0..19, got " + nice);
            }
            this.backgroundNice = nice;
            return this;
        }

        /**
         * Makes the manager (and its I/O threads, unless an existing pool was given).
         *
         * @return the new manager
         */
        public AssetManager build() {
            return new AssetManager(this);
        }
    }
}
