package dev.weft.assets;

import dev.weft.Counter;
import dev.weft.JobFailedException;
import dev.weft.JobGroup;
import dev.weft.Jobs;
import dev.weft.Priority;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One level load, in progress or finished; made by {@link LevelLoader#load}. See {@link LevelLoader} for
 * the job graph and the calling loop.
 *
 * <p>Threading: every method may be called from any thread and never blocks, except {@link #awaitDone}.
 * {@link #progress()} is a consistent snapshot; {@link #failures()} and {@link #timings()} are copies in
 * the order things happened.
 */
public final class LevelLoad {
    private final AssetManager assets;
    private final String levelName;
    private final JobGroup group;                                  // the level job and its entity jobs
    private final Counter done = new Counter();                    // 1 until the level job ended
    private final LoadProgress progress = new LoadProgress();
    private final ConcurrentLinkedQueue<LoadFailure> failures = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<AssetTimeline> timings = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<AssetRef<?>> held = new ConcurrentLinkedQueue<>();  // released by unload
    private final AtomicBoolean unloaded = new AtomicBoolean();
    private final long startNanos = System.nanoTime();
    private volatile long endNanos;                                // written by the level job before done drops
    private volatile LoadedLevel level;                            // likewise
    // How the load ended, decided once by one CAS from null: the level job's end (LOADED or FAILED) or an
    // unload() before it (CANCELLED). Without it an unload after the level was built but before the job
    // ended listed "unloaded while loading" and emptied level() while the job still said LOADED.
    // null once done: the job never ran and nobody unloaded (the manager was closed), so CANCELLED.
    private final AtomicReference<LoadProgress.Outcome> outcome = new AtomicReference<>();
    // The progress at the end, likewise: an asset this load shared and left when it was unloaded still tells
    // its watcher when it ends, after this load ended, and that moved the numbers progress() calls final.
    private volatile LoadProgress.Snapshot progressAtEnd;
    // Tests only: runs in the level job after the level is built (or the load failed), before its outcome is
    // decided; set before the level job can get there (a test holds the level file's read).
    volatile Runnable beforeOutcomeForTests;
    private boolean endedByClose;                                  // the level job's own: its manager closed under it

    LevelLoad(AssetManager assets, String levelName) {
        this.assets = assets;
        this.levelName = levelName;
        this.group = assets.jobs().newGroup("level " + levelName);
    }

    void start() {
        group.run(Priority.BACKGROUND, "level " + levelName, this::run, done);
    }

    /**
     * The name of the level being loaded, as given to {@link LevelLoader#load}.
     *
     * @return the level's name
     */
    public String levelName() {
        return levelName;
    }

    /**
     * Bytes and assets done against the level's totals (known once its file is parsed), and whether the load
     * has ended and how ({@link LoadProgress.Snapshot#outcome()}). Once {@link #isDone()} is true, so is the
     * snapshot's {@link LoadProgress.Snapshot#complete() complete()}, whatever the outcome: a level whose
     * file cannot be read, is unusable, or that was unloaded while loading (or whose manager was closed) ends
     * with its totals still 0 (or short of them) and {@link LoadProgress.Snapshot#failed() failed()} true,
     * {@link LoadProgress.Outcome#FAILED} or {@link LoadProgress.Outcome#CANCELLED} ({@link #failures()} says why); a loaded one ends
     * {@link LoadProgress.Outcome#LOADED}. So a loop {@code while (!load.progress().complete())} ends for
     * every load; test {@code failed()} after it.
     *
     * @return a snapshot of the level's progress
     */
    public LoadProgress.Snapshot progress() {
        // isDone() first: the level job's last progress update and its writes of level and outcome come
        // before the counter drops, and that drop (a CAS) is what isDone() reads (volatile), so a load seen
        // ended here has final numbers in the snapshot read after it, and its outcome is visible.
        if (!isDone()) {
            return progress.snapshot();
        }
        LoadProgress.Outcome how = outcome.get();     // decided once (an unload after the decision changes nothing)
        LoadProgress.Snapshot last = progressAtEnd;   // null: the job never ran, so no watcher was registered
        return (last != null ? last : progress.snapshot()).ended(how != null ? how : LoadProgress.Outcome.CANCELLED);
    }

    /**
     * True once the load has ended: loaded, failed (no usable level file) or unloaded.
     *
     * @return true once the load has ended
     */
    public boolean isDone() {
        return done.isDone();
    }

    /**
     * Waits at most {@code timeout} for the end; on the main thread it runs main-thread jobs meanwhile (the
     * uploads). The main thread is the one that called {@code JobSystem.bindMainThread()} or
     * {@code runMainThreadJobs}; with none bound, uploads never run and a load with an uploader never ends
     * (a timed-out {@code join} and the watchdog say so).
     *
     * @param timeout how long to wait at most
     * @return true if the load has ended, false on timeout
     */
    public boolean awaitDone(Duration timeout) {
        try {
            return done.await(timeout);
        } catch (JobFailedException e) {
            return true;                              // the level job never throws; be safe anyway
        }
    }

    /**
     * The level once loaded; empty while loading, if the level file was unusable, or after unload.
     *
     * @return the loaded level, or empty
     */
    public Optional<LoadedLevel> level() {
        return isDone() && !unloaded.get() && outcome.get() == LoadProgress.Outcome.LOADED
                ? Optional.ofNullable(level) : Optional.empty();
    }

    /**
     * Everything that went wrong so far, in order.
     *
     * @return an immutable copy of the failures so far
     */
    public List<LoadFailure> failures() {
        return List.copyOf(failures);
    }

    /**
     * Timelines of the level's assets finished so far, in the order they finished.
     *
     * @return an immutable copy of the timelines so far
     */
    public List<AssetTimeline> timings() {
        return List.copyOf(timings);
    }

    /**
     * Start to end of the load in nanoseconds, or -1 while it runs.
     *
     * @return the load's duration in nanoseconds, or -1 while it runs
     */
    public long totalNanos() {
        long end = endNanos;
        return isDone() && end != 0 ? end - startNanos : -1;
    }

    /**
     * {@link System#nanoTime()} when {@link LevelLoader#load} was called.
     *
     * @return the start time, in {@link System#nanoTime()} nanoseconds
     */
    public long startNanos() {
        return startNanos;
    }

    /**
     * Unloads the level: if it is still loading, cancels its jobs (the load ends soon after with no level);
     * releases every asset it requested. Idempotent. Exactly one of the two ends: an unload before the load
     * decided how it ended makes it end {@link LoadProgress.Outcome#CANCELLED} with an "unloaded while loading"
     * failure, even if its level was already built; one after that leaves the outcome as it was
     * ({@link LoadProgress.Outcome#LOADED}: loaded, then unloaded) and adds no failure.
     */
    public void unload() {
        if (!unloaded.compareAndSet(false, true)) {
            return;
        }
        // Still loading, and before the level job decided its end (done drops only after that decision, or
        // without one when the job never ran: then nothing is cancelled and nothing is added).
        if (!done.isDone() && outcome.compareAndSet(null, LoadProgress.Outcome.CANCELLED)) {
            failures.add(new LoadFailure(levelName, null, 0, levelName + ": unloaded while loading; load cancelled", null));
            group.cancel();
        }
        AssetRef<?> r;
        while ((r = held.poll()) != null) {
            r.release();
        }
    }

    /** Same as {@link #unload()}. */
    public void cancel() {
        unload();
    }

    // ------------------------------------------------------------------ the level job

    private void run() {
        try {
            LevelFile file = readLevelFile();
            if (file == null) {
                return;
            }
            loadAssetsAndEntities(file);
        } catch (CancellationException e) {
            if (!unloaded.get()) {                        // not ours: an asset was cancelled (manager closed)
                cannotLoad(null, e);
            }
        } catch (JobFailedException e) {
            if (!unloaded.get()) {
                cannotLoad(null, e.getCause());
            }
        } catch (RuntimeException | Error e) {
            cannotLoad(null, e);
        } finally {
            if (endedByClose && level == null) {
                failures.add(new LoadFailure(levelName, null, 0,
                        levelName + ": the asset manager was closed while the level loaded; load cancelled", null));
            }
            Runnable hook = beforeOutcomeForTests;
            if (hook != null) {
                hook.run();
            }
            endNanos = System.nanoTime();
            progressAtEnd = progress.snapshot();
            // Loses to an unload() that came first: then the load was cancelled, even with its level built.
            outcome.compareAndSet(null, level != null ? LoadProgress.Outcome.LOADED
                    : endedByClose ? LoadProgress.Outcome.CANCELLED : LoadProgress.Outcome.FAILED);
        }
    }

    private LevelFile readLevelFile() {
        String path = levelName + "/" + levelName + ".level";
        String file = assets.io().source().displayName(path);
        try {
            byte[] text = assets.io().read(path).await();   // parks until the I/O thread has it
            LevelFileSalvage.Result parsed = LevelFileSalvage.parse(levelName, file, text, assets.codecs);
            failures.addAll(parsed.failures());
            return parsed.level();
        } catch (IOException | AssetFormatException e) {
            cannotLoad(file, e);
            return null;
        }
    }

    /**
     * The level job cannot go on because of {@code cause}. A closed manager makes it fail on whichever path it
     * is on (a cancelled wait, a refused request, a closed I/O pool), each with its own message: then the one
     * cause is the close, listed once at the end, and the load ends CANCELLED (no level file was unusable).
     */
    private void cannotLoad(String file, Throwable cause) {
        if (assets.isClosed()) {
            endedByClose = true;
        } else {
            failures.add(LoadFailure.of(levelName, file, cause, "the level cannot load"));
        }
    }

    private void loadAssetsAndEntities(LevelFile file) {
        String dir = levelName + "/";
        List<LevelAsset> order = file.loadOrder();
        // The files to read, each under its id's normal path ("./textures/a.png" is "textures/a.png"), the one
        // its read uses.
        List<LevelAsset> read = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (LevelAsset a : order) {
            AssetId fileId = a.path() != null ? AssetId.texture(dir + a.path()) : null;
            if (fileId != null && !fileId.isPlaceholder()) {
                read.add(a);
                paths.add(fileId.path());
            }
        }
        long[] sizes;
        try {
            sizes = assets.io().sizes(paths).await();
        } catch (IOException e) {
            sizes = new long[paths.size()];                  // unknown: the bar falls back to asset counts
        }
        Map<LevelAsset, Long> bytesOf = new HashMap<>();   // files only: a derived asset or a placeholder reads none
        long bytesTotal = 0;
        for (int i = 0; i < paths.size(); i++) {
            long s = Math.max(0, sizes[i]);
            bytesOf.put(read.get(i), s);
            bytesTotal += s;
        }
        progress.addTotals(bytesTotal, order.size());

        // Largest files first (their read-and-decode chains are the longest), derived assets after the
        // files in load order: a job per asset either way, but the I/O threads serve reads in this order.
        List<LevelAsset> requestOrder = new ArrayList<>(order);
        requestOrder.sort(Comparator.comparing((LevelAsset a) -> a.kind().isDerived())
                .thenComparing(a -> -bytesOf.getOrDefault(a, 0L)));
        Map<String, AssetRef<?>> refs = new LinkedHashMap<>();
        for (LevelAsset a : requestOrder) {
            Jobs.checkCancelled();
            AssetId id = idOf(file, dir, a);
            AssetRef<?> ref = acquire(id);
            refs.put(a.name(), ref);
            long bytes = bytesOf.getOrDefault(a, 0L);
            ref.watch(new Watcher(a.name(), bytes));
        }

        List<LevelEntity> entities = file.entities();
        LoadedLevel.PlacedEntity[] placed = new LoadedLevel.PlacedEntity[entities.size()];
        Counter entitiesDone = new Counter("entities of " + levelName);
        for (int i = 0; i < placed.length; i++) {
            int index = i;
            LevelEntity en = entities.get(i);
            group.run(Priority.BACKGROUND, "entity " + en.name(), () -> placed[index] = place(en, refs), entitiesDone);
        }
        entitiesDone.await();                                 // parks; the counter's drop publishes placed[]
        Jobs.checkCancelled();                                // cancelled entity jobs leave holes in placed[]
        Map<String, LoadedTexture> textures = new LinkedHashMap<>();
        Map<String, LoadedMesh> meshes = new LinkedHashMap<>();
        Map<String, LoadedCollision> collisions = new LinkedHashMap<>();
        for (LevelAsset a : file.assets()) {
            LoadedAsset loaded = joinHeld(refs.get(a.name()));   // also the assets no entity uses
            if (a.name().startsWith("__placeholder_")) {
                continue;                                     // internal stand-ins of a repaired file
            }
            switch (loaded) {
                case LoadedTexture t -> textures.put(a.name(), t);
                case LoadedMesh m -> meshes.put(a.name(), m);
                case LoadedCollision c -> collisions.put(a.name(), c);
            }
        }
        level = new LoadedLevel(this, file, textures, meshes, collisions, List.of(placed), List.copyOf(failures));
    }

    private static AssetId idOf(LevelFile file, String dir, LevelAsset a) {
        if (a.kind() == AssetKind.COLLISION) {
            LevelAsset mesh = file.dependenciesOf(a.name()).get(0);
            return AssetId.collision(dir + mesh.path());
        }
        return new AssetId(a.kind(), dir + a.path());
    }

    private AssetRef<?> acquire(AssetId id) {
        AssetRef<?> r = assets.request(id);
        held.add(r);
        if (unloaded.get()) {                                 // unload() may have drained before our add
            r.release();
        }
        return r;
    }

    /**
     * Joins one of the level's references. Only unload() releases them (after setting unloaded), so a released
     * one is the level's cancellation: an unload between the assembly's cancellation check and this join listed
     * "this reference was released; the level cannot load" among a cancelled load's failures (1-3 of 3,000).
     */
    private LoadedAsset joinHeld(AssetRef<?> r) {
        try {
            return r.join();
        } catch (IllegalStateException released) {
            if (r.isReleased() && unloaded.get()) {      // both volatile; unload() sets unloaded before it releases
                throw new CancellationException("level " + levelName + " was unloaded while it was assembled");
            }
            throw released;
        }
    }

    private static LoadedLevel.PlacedEntity place(LevelEntity e, Map<String, AssetRef<?>> refs) {
        LoadedMesh mesh = (LoadedMesh) refs.get(e.mesh()).join();
        LoadedTexture texture = (LoadedTexture) refs.get(e.texture()).join();
        LoadedCollision collision = e.collision() == null ? null : (LoadedCollision) refs.get(e.collision()).join();
        return new LoadedLevel.PlacedEntity(e, mesh, texture, collision);
    }

    /** Credits one asset to the level's progress and collects its failure and timeline. */
    private final class Watcher implements AssetEntry.Watcher {
        private final String assetName;
        private final long expectedBytes;
        private long credited;                                // the entry's lock serialises our calls

        Watcher(String assetName, long expectedBytes) {
            this.assetName = assetName;
            this.expectedBytes = expectedBytes;
        }

        @Override
        public void bytesRead(long bytes) {
            long c = Math.min(bytes, expectedBytes);
            progress.addDone(c - credited, 0);
            credited = c;
        }

        @Override
        public void finished(AssetEntry e) {
            progress.addDone(expectedBytes - credited, 1);
            credited = expectedBytes;
            LoadFailure f = e.failure;
            if (f != null) {
                failures.add(new LoadFailure(assetName, f.file(), f.line(), f.message(), f.cause()));
            }
            timings.add(e.timeline());
        }
    }

    @Override
    public String toString() {
        return "LevelLoad[" + levelName + ", " + progress.snapshot() + (isDone() ? ", done" : "")
                + (unloaded.get() ? ", unloaded]" : "]");
    }
}
