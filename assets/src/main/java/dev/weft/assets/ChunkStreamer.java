package dev.weft.assets;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Streams the chunks of a {@link ChunkGrid} around a moving point: every chunk whose centre is within
 * {@code loadRadiusM} of the point or of a look-ahead point (where the camera will be soon) is loaded
 * with a {@link LevelLoader}, and every chunk farther than {@code unloadRadiusM} from both is unloaded —
 * its GPU objects freed, its native memory released and its asset references dropped; one still loading
 * has its jobs cancelled ({@link LevelLoad#unload()} cancels the level's {@link dev.weft.JobGroup} and
 * releases its assets, which cancels the asset groups nobody else holds). The gap between the radii is
 * hysteresis, so a chunk on the edge does not load and unload on alternate frames.
 *
 * <pre>{@code
 * AssetManager assets = AssetManager.builder(jobs).uploader(gpu).build();   // uploads: main-thread jobs
 * ChunkStreamer world = new ChunkStreamer(new LevelLoader(assets), ChunkGrid.shippedWorld(), 40f, 55f);
 * while (running) {                                       // main thread, once per frame
 *     world.update(camX, camZ, aheadX, aheadZ);           // starts and cancels loads, never blocks
 *     ... frame graph, draw world.resident() ...
 *     jobs.runMainThreadJobs(budgetNanos);                // the chunks' uploads and frees, within budget
 * }
 * world.close();                                          // unloads every chunk
 * }</pre>
 *
 * <p>All loading work is the asset manager's: BACKGROUND jobs, reads on its {@link IoPool}, decodes in its
 * decode lane, uploads as main-thread jobs. The streamer itself only decides what to load.
 *
 * <p>Threading: one owner thread (the game's main thread) calls {@link #update}, {@link #resident},
 * {@link #stats} and {@link #close}; nothing here is shared with jobs, so it has no synchronisation of its
 * own (the loads it holds are thread-safe).
 */
public final class ChunkStreamer implements AutoCloseable {
    private final LevelLoader loader;
    private final ChunkGrid grid;
    private final float loadRadiusM;
    private final float unloadRadiusM;
    private final LevelLoad[] loads;               // by ChunkGrid.index; null: not requested
    private final boolean[] counted;               // its end (loaded or failed) was counted
    private final List<LoadedLevel> resident = new ArrayList<>();
    private final Thread owner = Thread.currentThread();
    private int loading;
    private long chunksRequested;
    private long chunksLoaded;
    private long chunksUnloaded;
    private long chunksCancelled;
    private long chunkFailures;
    private long bytesStreamed;
    private boolean residentStale;
    private long residentVersion;
    private boolean closed;

    /**
     * A streamer owned by the calling thread, with nothing loaded yet.
     *
     * @param loader        loads each chunk's level; not null
     * @param grid          the chunks to stream; not null
     * @param loadRadiusM   chunks whose centre is this close to the point or the look-ahead point load
     * @param unloadRadiusM chunks farther than this from both unload; at least {@code loadRadiusM}
     * @throws IllegalArgumentException if {@code loadRadiusM} is not positive or {@code unloadRadiusM} is
     *                                  less than it
     */
    public ChunkStreamer(LevelLoader loader, ChunkGrid grid, float loadRadiusM, float unloadRadiusM) {
        this.loader = Objects.requireNonNull(loader, "loader");
        this.grid = Objects.requireNonNull(grid, "grid");
        if (!(loadRadiusM > 0) || !(unloadRadiusM >= loadRadiusM)) {
            throw new IllegalArgumentException("need 0 < loadRadiusM <= unloadRadiusM (the gap is hysteresis), got "
                    + loadRadiusM + " and " + unloadRadiusM);
        }
        this.loadRadiusM = loadRadiusM;
        this.unloadRadiusM = unloadRadiusM;
        this.loads = new LevelLoad[grid.chunkCount()];
        this.counted = new boolean[grid.chunkCount()];
    }

    /**
     * The grid whose chunks this streamer loads.
     *
     * @return the grid given at construction
     */
    public ChunkGrid grid() {
        return grid;
    }

    /**
     * Brings the loaded set up to date for a point at ({@code xM}, {@code zM}) heading for
     * ({@code aheadXM}, {@code aheadZM}): counts the loads that ended since the last call, unloads the far
     * chunks, starts the near ones. Never blocks. Owner thread only.
     *
     * @param xM the point's x, metres
     * @param zM the point's z, metres
     * @param aheadXM the look-ahead point's x, metres
     * @param aheadZM the look-ahead point's z, metres
     * @throws IllegalStateException if called from another thread than the owner, or after {@link #close()}
     * @throws IllegalArgumentException if a coordinate is NaN, or the point is infinite (an infinite look-ahead
     *                                  point means none)
     */
    public void update(float xM, float zM, float aheadXM, float aheadZM) {
        checkOwner();
        // A NaN distance is neither within the load radius nor beyond the unload one: nothing loaded, silently.
        String nan = Float.isNaN(xM) ? "xM" : Float.isNaN(zM) ? "zM" : Float.isNaN(aheadXM) ? "aheadXM"
                : Float.isNaN(aheadZM) ? "aheadZM" : null;
        if (nan != null) {
            throw new IllegalArgumentException("ChunkStreamer.update(" + xM + ", " + zM + ", " + aheadXM + ", " + aheadZM
                    + "): " + nan + " is NaN" + (nan.startsWith("ahead")
                            ? " (a look-ahead from a zero velocity?); pass the point itself, or an infinite one, when"
                                    + " there is no look-ahead"
                            : "; pass the position streamed around, in metres"));
        }
        // An infinite point is farther than the unload radius from every chunk: all unloaded, silently. Only the
        // look-ahead may be infinite (it means none): the streamed point is where the camera is.
        if (Float.isInfinite(xM) || Float.isInfinite(zM)) {
            throw new IllegalArgumentException("ChunkStreamer.update(" + xM + ", " + zM + ", " + aheadXM + ", " + aheadZM
                    + "): the point (" + xM + ", " + zM + ") is infinite, so no chunk would stay loaded; pass the"
                    + " position streamed around, in metres (only the look-ahead point may be infinite: none)");
        }
        if (closed) {                          // it would start loads that nothing unloads any more
            throw new IllegalStateException("ChunkStreamer of '" + grid.prefix() + "' was closed; update() would load"
                    + " chunks that nothing unloads. Stop calling update() when you close it, or make a new ChunkStreamer");
        }
        collectEnded();
        for (int row = 0; row < grid.rows(); row++) {
            for (int column = 0; column < grid.columns(); column++) {
                int i = grid.index(column, row);
                float cx = grid.centreXM(column), cz = grid.centreZM(row);
                float d = Math.min(distance(cx, cz, xM, zM), distance(cx, cz, aheadXM, aheadZM));
                if (loads[i] == null && d <= loadRadiusM) {
                    loads[i] = loader.load(grid.levelName(column, row));
                    counted[i] = false;
                    loading++;
                    chunksRequested++;
                } else if (loads[i] != null && d > unloadRadiusM) {
                    unload(i);
                }
            }
        }
    }

    /**
     * True if some chunk is still loading (as of the last {@link #update} or this call). Owner thread only.
     *
     * @return true while a requested chunk has neither loaded nor failed nor been unloaded
     */
    public boolean isStreaming() {
        checkOwner();
        collectEnded();
        return loading > 0;
    }

    /**
     * The chunks loaded now, in grid order; entity positions are relative to {@link #origin}. Owner thread
     * only.
     *
     * @return an unmodifiable view of the resident chunks, valid until the next call on this streamer
     */
    public List<LoadedLevel> resident() {
        checkOwner();
        collectEnded();
        if (residentStale) {
            resident.clear();
            for (LevelLoad l : loads) {
                if (l != null) {
                    l.level().ifPresent(resident::add);
                }
            }
            residentStale = false;
        }
        return Collections.unmodifiableList(resident);
    }

    /**
     * Changes whenever {@link #resident()} does (a chunk finished loading or was unloaded). Owner thread
     * only.
     *
     * @return a number that changes whenever the resident set does
     */
    public long residentVersion() {
        checkOwner();
        collectEnded();
        return residentVersion;
    }

    /**
     * Where a resident chunk's origin is in the world: its cell's centre, metres (x, z).
     *
     * @param chunk a chunk of this streamer's grid
     * @return a new array: the chunk's centre x and z, metres
     * @throws IllegalArgumentException if {@code chunk} is not a level of this grid
     */
    public float[] origin(LoadedLevel chunk) {
        Objects.requireNonNull(chunk, "ChunkStreamer.origin(null): pass a chunk from resident()");
        for (int row = 0; row < grid.rows(); row++) {
            for (int column = 0; column < grid.columns(); column++) {
                if (grid.levelName(column, row).equals(chunk.name())) {
                    return new float[] {grid.centreXM(column), grid.centreZM(row)};
                }
            }
        }
        throw new IllegalArgumentException(chunk.name() + " is not a chunk of grid '" + grid.prefix() + "'");
    }

    /**
     * Counters so far. Owner thread only.
     *
     * @return a snapshot of the counters
     */
    public Stats stats() {
        checkOwner();
        collectEnded();
        return new Stats(chunksRequested, chunksLoaded, chunksUnloaded, chunksCancelled, chunkFailures, loading,
                bytesStreamed);
    }

    /**
     * A streamer's counters, from {@link #stats()}.
     *
     * @param chunksRequested chunk loads started
     * @param chunksLoaded    of those, finished with a level
     * @param chunksUnloaded  chunks unloaded (loaded ones and cancelled ones)
     * @param chunksCancelled of the unloaded, those still loading: their jobs were cancelled
     * @param chunkFailures   asset failures in finished chunks (placeholders used)
     * @param chunksLoading   loading now
     * @param bytesStreamed   asset bytes read for chunks (of cancelled ones, what was read before the cancel)
     */
    public record Stats(long chunksRequested, long chunksLoaded, long chunksUnloaded, long chunksCancelled,
                        long chunkFailures, int chunksLoading, long bytesStreamed) {}

    /** Unloads every chunk (cancelling those still loading). Idempotent. Owner thread only. */
    @Override
    public void close() {
        checkOwner();
        if (closed) {
            return;
        }
        closed = true;
        collectEnded();
        for (int i = 0; i < loads.length; i++) {
            if (loads[i] != null) {
                unload(i);
            }
        }
    }

    private void unload(int i) {
        LevelLoad l = loads[i];
        loads[i] = null;
        if (!counted[i]) {                     // still loading: unload cancels its jobs
            loading--;
            chunksCancelled++;
            bytesStreamed += l.progress().bytesDone();
        }
        l.unload();
        chunksUnloaded++;
        residentStale = true;
        residentVersion++;
    }

    /** Counts every load that ended since the last look: a done counter is final, so this reads it once. */
    private void collectEnded() {
        for (int i = 0; i < loads.length; i++) {
            LevelLoad l = loads[i];
            if (l != null && !counted[i] && l.isDone()) {
                counted[i] = true;
                loading--;
                bytesStreamed += l.progress().bytesDone();
                if (l.level().isPresent()) {
                    chunksLoaded++;
                    chunkFailures += l.level().get().failures().size();
                    residentStale = true;
                    residentVersion++;
                } else {
                    chunkFailures += Math.max(1, l.failures().size());
                }
            }
        }
    }

    private static float distance(float ax, float az, float bx, float bz) {
        float dx = ax - bx, dz = az - bz;
        return (float) Math.sqrt(dx * dx + dz * dz);
    }

    private void checkOwner() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("ChunkStreamer is used from " + Thread.currentThread().getName()
                    + " but belongs to " + owner.getName() + ", which made it; call it from one thread (the game's main thread)");
        }
    }

    @Override
    public String toString() {
        return "ChunkStreamer[" + grid.prefix() + ", " + loading + " loading, " + chunksLoaded + " loaded, "
                + chunksUnloaded + " unloaded]";
    }
}
