package dev.weft.demo.game;

import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.demo.render.Camera;
import dev.weft.demo.render.DirectionalLight;
import dev.weft.demo.render.FrameTimeGraph;
import dev.weft.demo.render.Mesh;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.render.RgbaImage;
import dev.weft.demo.render.Texture;
import dev.weft.demo.window.Display;
import dev.weft.demo.window.DisplayKind;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The main-thread part of a run: agent uploads, the {@link LoadingPhase}, then the gameplay frames
 * (input, frame graph, draw, main-thread jobs, present; see {@link Game}'s class comment). Returns what
 * it measured as {@link Played}. Main thread only.
 */
final class GameLoop {
    private static final int REPORT_EVERY_FRAMES = 30;
    /** The start area gives up waiting after this (its chunks then stream during gameplay). */
    private static final long START_AREA_TIMEOUT_NANOS = 10_000_000_000L;
    /** The main thread's trace span from a frame's first draw call to its present. */
    static final String PRESENT_SPAN = "draw+present";

    private final GameConfig cfg;
    private final Display display;
    private final Renderer renderer;
    private final JobSystem jobs;
    private LevelLoading loading;                // made by cfg.loading(); closed by closeLoading()
    private ChunkStreaming streaming;            // null with --streaming off; finished by frames() or closeLoading()

    GameLoop(GameConfig cfg, Display display, Renderer renderer, JobSystem jobs) {
        this.cfg = cfg;
        this.display = display;
        this.renderer = renderer;
        this.jobs = jobs;
    }

    /** Frees the loader (its asset manager cancels and frees its loads); the caller does this before closing jobs. */
    void closeLoading() {
        try {
            if (streaming != null) {
                streaming.finish();              // idempotent: frames() normally finished it already
            }
        } finally {
            if (loading != null) {
                loading.close();
            }
        }
    }

    Played play() throws Watchdog, GameException {
        jobs.bindMainThread();
        boolean window = display.kind() == DisplayKind.WINDOW;
        GameConfig.Clock clock = cfg.clock() != GameConfig.Clock.AUTO ? cfg.clock()
                : window ? GameConfig.Clock.REALTIME : GameConfig.Clock.LOCKSTEP;
        cfg.out().printf(Locale.ROOT, "weft-demo: level '%s', %d entities, %d workers, pipeline %s, clock %s, %d frames%n",
                cfg.level(), cfg.entities(), jobs.workerCount(), (cfg.pipeline() ? "on" : "off") + ", frame graph "
                        + cfg.frameGraphStyle().label(),
                clock.name().toLowerCase(Locale.ROOT), cfg.frames());
        renderer.setClearColour(0.30f, 0.42f, 0.58f);
        FrameTimeGraph graph = new FrameTimeGraph();

        GpuTable gpu = new GpuTable();
        float[] agentMeshScales = gpu.uploadAgentAssets(renderer);
        int agentMeshKinds = gpu.meshes.size();
        int agentTextureKinds = gpu.textures.size();

        loading = cfg.loading().open(jobs, cfg.assetLatency());
        LoadingPhase.Loaded loaded = new LoadingPhase(cfg, display, renderer, jobs, graph).load(loading, gpu);
        Level level = loaded.level();
        CollisionWorld world = level.collision();

        Entities entities = Entities.spawn(cfg.entities(), cfg.seed(), world, agentMeshKinds, agentTextureKinds);
        FrameGraph.Props props = LevelProps.resolve(level, gpu);
        level.close();                                   // CPU-side copies are on the GPU now
        FrameGraph.MainThreadReport report = window ? WindowTitle.report(display) : null;
        FrameGraph.Setup setup = new FrameGraph.Setup(jobs, entities, world,
                new FrameGraph.AgentKinds(GpuTable.firstIds(agentMeshKinds), agentMeshScales,
                        GpuTable.firstIds(agentTextureKinds)), props,
                gpu.meshes.size(), gpu.textures.size(),
                new FrameGraph.Gpu(gpu.meshes.toArray(Mesh[]::new), gpu.textures.toArray(Texture[]::new)),
                cfg.grain(), report, REPORT_EVERY_FRAMES, cfg.stageHook());
        streaming = ChunkStreaming.open(cfg, jobs, renderer);
        if (streaming != null) {
            streaming.startAreaBegin(world.bounds());   // loads while the warm-up runs: both behind the loading screen
        }
        WarmUp.Result warmUp = cfg.warmUp() ? new WarmUp(cfg, display, renderer, jobs, graph).run(setup) : WarmUp.Result.off();
        if (streaming != null) {
            awaitStartArea();
        }
        FrameGraph frameGraph = new FrameGraph(setup);
        frameGraph.style(cfg.frameGraphStyle());
        return frames(frameGraph, world.bounds(), clock, graph, loaded, warmUp, entities);
    }

    private Played frames(FrameGraph frameGraph, CollisionWorld.WorldBounds bounds, GameConfig.Clock clock,
                          FrameTimeGraph graph, LoadingPhase.Loaded loaded, WarmUp.Result warmUp, Entities entities)
            throws Watchdog, GameException {
        Camera camera = new Camera().perspective(60f, 0.1f, CameraPath.farPlane(bounds));
        DirectionalLight light = DirectionalLight.defaults();
        Histogram histogram = new Histogram(3);
        SlowestFrames slowest = new SlowestFrames(5);
        GameplayTimings timings = new GameplayTimings();
        long lastHash = 0;
        long[] stageNanos = new long[FrameStage.values().length];
        InputClock inputs = new InputClock(clock, camera, bounds, display);
        int overBudget = 0;
        long visibleSum = 0;
        int frames = 0;
        Optional<RgbaImage> shot = Optional.empty();
        long budgetNanos = Math.round(RunSummary.BUDGET_MS * 1e6);
        long drawCallsBefore = renderer.drawCalls();     // the loading screen's and the warm-up's are not gameplay's

        JobHandle<FrameGraph.Output> pending = cfg.pipeline() ? frameGraph.submit(inputs.next(0)) : null;
        long last = System.nanoTime();
        for (int frame = 0; frame < cfg.frames() && !display.shouldClose(); frame++) {
            display.pollEvents();
            if (streaming != null) {
                streaming.beginFrame(inputs.simTicks(), bounds);
            }
            JobHandle<FrameGraph.Output> handle = cfg.pipeline() ? pending : frameGraph.submit(inputs.next(frame));
            FrameGraph.Output o = awaitFrame(handle, frameGraph);
            pending = null;
            if (cfg.pipeline() && frame + 1 < cfg.frames()) {
                pending = frameGraph.submit(inputs.next(frame + 1));   // N+1 simulates while N is drawn
            }
            jobs.beginTraceSpan(PRESENT_SPAN);             // with --trace: N+1's jobs line up against it
            renderer.beginFrame();
            camera.lookAt(o.eye, o.target);
            renderer.drawScene(camera, light, o.draws);
            if (streaming != null) {
                streaming.draw(camera, light);
            }
            renderer.drawFrameGraph(graph);
            if (frame == cfg.frames() - 1 && cfg.screenshot() != null && display.hasGl()) {
                shot = renderer.readFrame();             // before the swap
            }
            jobs.runMainThreadJobs(cfg.mainThreadBudgetNanos());
            if (cfg.stageHook() != null) {
                cfg.stageHook().onPresent(frame);
            }
            display.swapBuffers();
            jobs.endTraceSpan();

            long now = System.nanoTime();
            long frameNanos = now - last;
            last = now;
            graph.recordNanos(frameNanos);
            histogram.recordValue(Math.max(1, frameNanos));
            slowest.record(frame, frameNanos);
            timings.record(frame, frameNanos, o.simulateStartNanos, now);
            if (frame == cfg.frames() - 1) {
                lastHash = o.commands.contentHash();
            }
            if (frameNanos > budgetNanos) {
                overBudget++;
            }
            if (streaming != null) {
                streaming.endFrame(frameNanos);
            }
            visibleSum += o.visibleEntities;
            for (int s = 0; s < stageNanos.length; s++) {
                stageNanos[s] += o.stageNanos[s];
            }
            frames++;
        }
        if (pending != null) {
            awaitFrame(pending, frameGraph);             // the window closed with a frame in flight
        }

        StreamingReport streamed = streaming == null ? StreamingReport.OFF : streaming.finish();
        String screenshot = Screenshot.write(cfg.screenshot(), shot, cfg.out());
        long expectedRanges = frameGraph.framesSubmitted() * 3 * FrameGraph.rangesPerStage(cfg.entities(), cfg.grain());
        return new Played(cfg, Game.kindName(display.kind()), clock.name().toLowerCase(Locale.ROOT), frames,
                loaded.loadingFrames(), histogram, overBudget, loaded.loadMs(), inputs.simTicks(), visibleSum, stageNanos,
                frameGraph.rangesRun(), expectedRanges, frameGraph.entityUpdates(), loaded.failures(), screenshot,
                slowest, timings.finish(warmUp, lastHash), streamed, EntityStateHash.of(entities),
                renderer.drawCalls() - drawCallsBefore);
    }

    /** Loading-screen frames until the start area's chunks are in (their uploads are main-thread jobs). */
    private void awaitStartArea() {
        long start = System.nanoTime();
        long deadline = start + START_AREA_TIMEOUT_NANOS;
        while (streaming.startAreaLoading() && System.nanoTime() - deadline < 0 && !display.shouldClose()) {
            long frameStart = System.nanoTime();
            display.pollEvents();
            renderer.beginFrame();
            renderer.drawLoadingScreen(1f);
            jobs.runMainThreadJobs(cfg.mainThreadBudgetNanos());
            display.swapBuffers();
            long remaining = frameStart + InputClock.TICK_NANOS - System.nanoTime();   // ~60 Hz, as LoadingPhase
            if (remaining > 0) {
                LockSupport.parkNanos(remaining);
            }
        }
        streaming.startAreaEnd(System.nanoTime() - start);
    }

    private FrameGraph.Output awaitFrame(JobHandle<FrameGraph.Output> handle, FrameGraph frameGraph) throws Watchdog {
        long start = System.nanoTime();
        try {
            return handle.join(cfg.watchdog());
        } catch (TimeoutException e) {
            throw new Watchdog(frameGraph.describeStall(System.nanoTime() - start));
        }
    }
}
