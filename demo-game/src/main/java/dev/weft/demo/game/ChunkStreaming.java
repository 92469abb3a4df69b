package dev.weft.demo.game;

import dev.weft.JobSystem;
import dev.weft.assets.AssetManager;
import dev.weft.assets.ChunkGrid;
import dev.weft.assets.ChunkStreamer;
import dev.weft.assets.FaultPlan;
import dev.weft.assets.LevelLoader;
import dev.weft.assets.LoadedLevel;
import dev.weft.demo.game.CollisionWorld.WorldBounds;
import dev.weft.demo.render.Camera;
import dev.weft.demo.render.DirectionalLight;
import dev.weft.demo.render.DrawList;
import dev.weft.demo.render.Mesh;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.render.Texture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.joml.Matrix4f;
import org.joml.Vector3f;

/**
 * The demo's glue around the library's {@link ChunkStreamer}: the shipped world
 * ({@link ChunkGrid#shippedWorld()}) streamed around the camera on its {@link CameraPath}, its own
 * {@link AssetManager} uploading through the game's renderer ({@link CountingGpuUploader}) as main-thread
 * jobs that the game loop runs within its per-frame budget, the resident chunks drawn, and the frame
 * counts for the summary. Chunks are scenery: they are not in the simulation's {@link CollisionWorld}, so
 * streaming cannot change what the entities do (their BVHs are still built, as a game's would be).
 * Main thread only.
 */
final class ChunkStreaming {
    /** Chunks this close to the camera's ground point (now or {@link #LOOK_AHEAD_SECONDS} ahead) load. */
    static final float LOAD_RADIUS_M = 40f;
    /** Chunks farther than this from both points unload. */
    static final float UNLOAD_RADIUS_M = 55f;
    /** How far ahead on the path the streamer looks: covers a chunk's read latency and decode. */
    static final double LOOK_AHEAD_SECONDS = 2.0;
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);

    private final JobSystem jobs;
    private final Renderer renderer;
    private final CountingGpuUploader gpu;
    private final AssetManager assets;
    private final ChunkStreamer streamer;
    private final long budgetNanos = Math.round(RunSummary.BUDGET_MS * 1e6);
    private final Vector3f eye = new Vector3f();
    private final Vector3f target = new Vector3f();
    private final DrawList draws = new DrawList(64);
    private final Matrix4f model = new Matrix4f();
    private final float[] modelFloats = new float[DrawList.MATRIX_FLOATS];
    private long drawnVersion = -1;
    private boolean loadingThisFrame;
    private int framesStreaming;
    private int overBudgetStreaming;
    private long startAreaChunks;                // loaded behind the loading screen (startAreaBegin)
    private double startAreaWaitMs;
    private StreamingReport finished;

    private ChunkStreaming(JobSystem jobs, Renderer renderer, Duration assetLatency) {
        this.jobs = jobs;
        this.renderer = renderer;
        this.gpu = new CountingGpuUploader(renderer);
        FaultPlan disk = assetLatency.isZero() ? FaultPlan.NONE : FaultPlan.builder().latency("*", assetLatency).build();
        this.assets = AssetManager.builder(jobs).faults(disk).uploader(gpu).build();
        this.streamer = new ChunkStreamer(new LevelLoader(assets), ChunkGrid.shippedWorld(), LOAD_RADIUS_M,
                UNLOAD_RADIUS_M);
    }

    /** Streaming for a run, or null with {@code --streaming off}. Main thread. */
    static ChunkStreaming open(GameConfig cfg, JobSystem jobs, Renderer renderer) {
        return cfg.streaming() ? new ChunkStreaming(jobs, renderer, cfg.assetLatency()) : null;
    }

    /**
     * Behind the loading screen, before the warm-up: starts loading the chunks around the camera's first
     * position and the look-ahead point, as a game loads its start area before play. Gameplay then
     * streams only the chunks ahead. The warm-up's frames run their uploads (main-thread jobs); until
     * then nothing here waits. Without it, the first gameplay frames met nine chunks requested at once,
     * with the streaming code not yet compiled: they were most of the frames over budget while streaming.
     */
    void startAreaBegin(WorldBounds bounds) {
        beginFrame(0, bounds);
    }

    /** True while the start area is still loading (after {@link #startAreaBegin}). */
    boolean startAreaLoading() {
        return streamer.isStreaming();
    }

    /**
     * The start area is in (or the wait for it gave up): records it for the summary.
     *
     * @param waitedNanos how long the loading screen stayed up for it after the warm-up
     */
    void startAreaEnd(long waitedNanos) {
        startAreaChunks = streamer.stats().chunksLoaded();
        startAreaWaitMs = waitedNanos / 1e6;
        loadingThisFrame = false;
    }

    /** Start of a frame: updates the loaded set for the camera at {@code simTicks}. */
    void beginFrame(long simTicks, WorldBounds bounds) {
        double now = simTicks * (double) FrameGraph.TICK_SECONDS;
        CameraPath.at(now, bounds, eye, target);
        float x = eye.x, z = eye.z;
        CameraPath.at(now + LOOK_AHEAD_SECONDS, bounds, eye, target);
        streamer.update(x, z, eye.x, eye.z);
        loadingThisFrame = streamer.isStreaming();
    }

    /** Draws the resident chunks (after the frame's scene). */
    void draw(Camera camera, DirectionalLight light) {
        if (streamer.residentVersion() != drawnVersion) {
            rebuildDraws(streamer.resident());
            drawnVersion = streamer.residentVersion();
        }
        if (draws.size() > 0) {
            renderer.drawScene(camera, light, draws);
        }
    }

    /** End of a frame, after its main-thread jobs ran: counts it if a chunk was loading during it. */
    void endFrame(long frameNanos) {
        if (loadingThisFrame || streamer.isStreaming()) {
            framesStreaming++;
            if (frameNanos > budgetNanos) {
                overBudgetStreaming++;
            }
        }
    }

    /**
     * Unloads every chunk, runs main-thread jobs until their GPU frees ran, the manager holds no asset and
     * no decoded texture memory (at most 10 s), closes the manager, and reports, leaks included. The
     * texture memory is waited for too: a decode still running when its chunk unloaded frees its memory
     * when it ends, after the asset is gone (a clean-clone run reported 1 such texture as leaked). A real
     * leak outlives the 10 s and is reported. Idempotent. Main thread.
     */
    StreamingReport finish() {
        if (finished != null) {
            return finished;
        }
        draws.clear();
        ChunkStreamer.Stats played = streamer.stats();   // before close: chunks_unloaded counts gameplay unloads
        streamer.close();
        long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        while ((gpu.live() > 0 || assets.stats().entries() > 0 || assets.stats().liveTextureData() > 0)
                && System.nanoTime() < deadline) {
            jobs.runMainThreadJobs(budgetNanos);              // the frees are main-thread jobs
            LockSupport.parkNanos(200_000);
        }
        assets.close();
        jobs.runMainThreadJobs(budgetNanos);
        ChunkStreamer.Stats s = streamer.stats();
        AssetManager.Stats a = assets.stats();
        finished = new StreamingReport(true, s.chunksLoaded(), startAreaChunks, startAreaWaitMs,
                played.chunksUnloaded(), played.chunksCancelled(), s.bytesStreamed(), framesStreaming,
                overBudgetStreaming, gpu.uploaded(), gpu.live(), a.entries(), a.liveTextureData(), s.chunkFailures());
        return finished;
    }

    private void rebuildDraws(List<LoadedLevel> resident) {
        draws.clear();
        for (LoadedLevel chunk : resident) {
            float[] origin = streamer.origin(chunk);
            for (LoadedLevel.PlacedEntity p : chunk.entities()) {
                var mesh = p.mesh().gpu();
                var texture = p.texture().gpu();
                if (mesh.isEmpty() || texture.isEmpty()) {
                    continue;                                  // a placeholder without an upload
                }
                var e = p.entity();
                model.translation(origin[0] + e.xM(), e.yM(), origin[1] + e.zM()).get(modelFloats);
                draws.add((Mesh) mesh.get(), (Texture) texture.get(), modelFloats, 0);
            }
        }
    }
}
