package dev.weft.demo.game;

import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.JobTrace;
import dev.weft.assets.AssetManager;
import dev.weft.assets.FaultPlan;
import dev.weft.demo.loading.PipelineLevelLoading;
import dev.weft.JobSystemStats;
import dev.weft.demo.render.Camera;
import dev.weft.demo.render.DirectionalLight;
import dev.weft.demo.render.FrameTimeGraph;
import dev.weft.demo.render.Mesh;
import dev.weft.assets.MeshSource;
import dev.weft.assets.ProceduralMeshes;
import dev.weft.demo.render.ProceduralTextures;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.render.RgbaImage;
import dev.weft.demo.render.Texture;
import dev.weft.assets.TextureSource;
import dev.weft.demo.window.Display;
import dev.weft.demo.window.DisplayConfig;
import dev.weft.demo.window.DisplayKind;
import dev.weft.demo.window.Displays;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.FloatBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.joml.Matrix4f;
import org.joml.Vector3f;
import org.lwjgl.glfw.GLFW;

/**
 * The demo game: opens a display, loads a level while drawing a loading screen, then runs the frame
 * loop on the calling thread (the main thread, which owns the window and GL context) and returns a
 * {@link RunSummary}.
 *
 * <h2>Implementation overview</h2>
 *
 * <p><b>Phases.</b> (1) Display and renderer, with the display fallback's one-line notices; the game's
 * own agent meshes and textures are uploaded directly. (2) Loading: {@link LevelLoading#start}, then
 * one loading frame per 1/60 s (loading screen or text progress, {@code runMainThreadJobs}, and
 * {@link LevelLoading.Handle#awaitDone} for the rest of the frame). When the level is ready its meshes
 * and textures are uploaded by main-thread jobs ({@code jobs.onMainThread}), drained within the
 * per-frame budget, so a big level spreads its uploads over several loading frames. (3) Gameplay
 * frames, below. (4) Shutdown: the job system is closed first (so its statistics are exact), then the
 * renderer and the display.
 *
 * <p><b>One gameplay frame.</b> The main thread decides the frame's input — how many 60 Hz ticks
 * ({@link GameConfig.Clock}) and the camera on its scripted path ({@link CameraPath}, a function of
 * simulated time) — and submits the {@link FrameGraph} (simulate → cull → build → merge, counters
 * between the stages). It waits for the graph with a timeout (the watchdog: a graph that takes longer
 * than {@code --watchdog-ms}, 5 s by default, ends the run with {@link #EXIT_WATCHDOG} and a line
 * naming the stuck stage), then issues the draws through the {@link Renderer}, draws the frame-time
 * graph, runs main-thread jobs within {@code mainThreadBudgetNanos}, and presents.
 *
 * <p><b>Pipelining</b> ({@code --pipeline}). The graph of frame N+1 is submitted as soon as frame N's
 * graph is done, before N is drawn, so simulation of N+1 overlaps N's draw calls and present. The
 * graph's output slots are double-buffered; the entity arrays are not, and need not be, because only
 * one graph runs at a time and drawing reads only the output slot. Cost: one frame more of latency.
 *
 * <p><b>Frame time</b> is the wall time from one frame's end to the next one's, recorded in an
 * HdrHistogram (gameplay frames only) and the on-screen {@link FrameTimeGraph} (all frames).
 */
public final class Game {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_WATCHDOG = 3;

    /** Most ticks one real-time frame may simulate; beyond that the game slows down instead of spiralling. */
    public static final int MAX_TICKS_PER_FRAME = 5;

    private static final long TICK_NANOS = 16_666_667L;
    private static final int REPORT_EVERY_FRAMES = 30;

    private final GameConfig cfg;
    private final PrintStream out;
    private AssetManager assets;             // the real loader's manager, closed before the job system

    private Game(GameConfig cfg) {
        this.cfg = cfg;
        this.out = cfg.out();
    }

    /**
     * Runs the game on the calling thread, which becomes the main thread (window, GL, main-thread jobs).
     *
     * @throws GameException with the exit code to use: {@link #EXIT_FAILED} (load failed, a job threw)
     *                       or {@link #EXIT_WATCHDOG} (a frame's job graph hung)
     */
    public static RunSummary run(GameConfig cfg) throws GameException {
        return new Game(cfg).run();
    }

    private RunSummary run() throws GameException {
        List<DisplayKind> chain = cfg.displayChain();
        DisplayConfig dc = new DisplayConfig(cfg.width(), cfg.height(), "Weft demo", chain.get(0), true);
        try (Display display = Displays.openFirst(dc, chain, out::println);
             Renderer renderer = Renderer.create(display)) {
            out.println("weft-demo: display " + kindName(display.kind()) + ": " + display.description()
                    + "; renderer: " + renderer.description());
            if (cfg.screenshot() != null && !display.hasGl()) {
                out.println("weft-demo: --screenshot " + cfg.screenshot() + " skipped: no GL display could be opened"
                        + (cfg.display() == GameConfig.DisplayChoice.NONE ? " (--display none)" : " (see above)"));
            }
            // The engine's watchdog is on in the demo: it names jobs that wait or hold a worker for over 10 s.
            JobSystem jobs = JobSystem.builder().name("weft").workers(cfg.workers())
                    .watchdog(Duration.ofSeconds(10), r -> out.println(r)).build();
            JobTrace trace = cfg.trace() != null ? jobs.startTrace(TRACE_EVENTS_PER_WORKER) : null;
            boolean wedged = false;
            Played played;
            try {
                played = play(display, renderer, jobs);
            } catch (Watchdog w) {
                wedged = true;
                out.println("weft-demo: watchdog: " + w.getMessage() + "; giving up with exit status " + EXIT_WATCHDOG);
                // close() would wait for the hung job forever. shutdownNow() cancels what is queued and asks
                // running jobs to stop; one that never looks (a real hang) keeps its worker, and we leave it.
                jobs.shutdownNow();
                if (!awaitStop(jobs)) {
                    out.println("weft-demo: watchdog: the stuck job did not stop within " + STOP_GRACE.toMillis()
                            + " ms; leaving its worker behind");
                }
                throw new GameException(EXIT_WATCHDOG, "watchdog: " + w.getMessage());
            } catch (RuntimeException e) {
                throw new GameException(EXIT_FAILED, "failed: " + e, e);
            } finally {
                if (assets != null) {
                    assets.close();                 // before the job system: it cancels and frees its loads
                }
                if (!wedged) {
                    jobs.close();
                }
            }
            if (trace != null) {
                try {
                    trace.stop().writeChromeTrace(cfg.trace());
                    out.println("weft-demo: job trace written to " + cfg.trace() + " (open it in ui.perfetto.dev or "
                            + "chrome://tracing)" + (trace.droppedEvents() > 0 ? "; the buffer filled up, "
                            + trace.droppedEvents() + " later events were not kept" : ""));
                } catch (IOException e) {
                    throw new GameException(EXIT_FAILED, "cannot write --trace " + cfg.trace() + ": " + e, e);
                }
            }
            JobSystemStats stats = jobs.stats();
            RunSummary summary = played.summarize(stats, renderer.drawCalls());
            summary.print(out);
            if (cfg.summary() != null) {
                try {
                    summary.writeJson(cfg.summary());
                    out.println("weft-demo: summary written to " + cfg.summary());
                } catch (IOException e) {
                    throw new GameException(EXIT_FAILED, "cannot write --summary " + cfg.summary() + ": " + e, e);
                }
            }
            return summary;
        }
    }

    private static final Duration STOP_GRACE = Duration.ofSeconds(2);
    /** The levels the assets module generates (see assets/README.md). */
    private static final List<String> SHIPPED_LEVELS = List.of("demo", "tiny");
    /** Events kept per worker by --trace: enough for the load and the first few hundred frames. */
    private static final int TRACE_EVENTS_PER_WORKER = 400_000;

    private static boolean awaitStop(JobSystem jobs) {
        try {
            return jobs.awaitTermination(STOP_GRACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Everything measured by the main thread; job statistics are added after the job system closed. */
    private record Played(GameConfig cfg, String display, String clock, int frames, int loadingFrames,
                          Histogram histogram, int overBudget, double levelLoadMs, long simTicks, long visibleSum,
                          long[] stageNanos, long rangesRun, long rangesExpected, long entityUpdates,
                          int loadFailures, String screenshot, SlowestFrames slowest, Histogram warm) {
        RunSummary summarize(JobSystemStats stats, long drawCalls) {
            Map<String, Double> stages = new HashMap<>();
            for (FrameStage s : FrameStage.values()) {
                stages.put(s.label(), frames == 0 ? 0.0 : stageNanos[s.ordinal()] / 1e6 / frames);
            }
            boolean any = histogram.getTotalCount() > 0;
            return new RunSummary(frames, cfg.frames(), loadingFrames,
                    percentileMs(histogram, 50), percentileMs(histogram, 95), percentileMs(histogram, 99),
                    any ? histogram.getMaxValue() / 1e6 : 0, any ? histogram.getMean() / 1e6 : 0, overBudget, levelLoadMs, stats.jobsRun(),
                    stats.mainThreadJobsRun(), cfg.entities(), cfg.workers(), cfg.pipeline(), display, clock,
                    cfg.level(), simTicks, frames == 0 ? 0 : (double) visibleSum / frames, drawCalls, rangesRun,
                    rangesExpected, entityUpdates, stages, loadFailures, screenshot, slowest.asMillis(),
                    percentileMs(warm, 99));
        }

        /** A percentile of nanosecond frame times in ms; 0 for an empty histogram. */
        private static double percentileMs(Histogram h, double percentile) {
            return h.getTotalCount() > 0 ? h.getValueAtPercentile(percentile) / 1e6 : 0;
        }
    }

    /** A frame graph that did not finish within the watchdog time. */
    private static final class Watchdog extends Exception {
        private static final long serialVersionUID = 1L;

        Watchdog(String message) {
            super(message);
        }
    }

    /** GPU resources by id: agent meshes/textures first, then the level's. */
    private static final class GpuTable {
        final List<Mesh> meshes = new ArrayList<>();
        final List<Texture> textures = new ArrayList<>();
        final Map<String, Integer> levelMeshIds = new HashMap<>();
        final Map<String, Integer> levelTextureIds = new HashMap<>();
    }

    /** The level as uploaded. */
    private record Loaded(Level level, double loadMs, int loadingFrames, int failures) {}

    private Played play(Display display, Renderer renderer, JobSystem jobs) throws Watchdog, GameException {
        jobs.bindMainThread();
        boolean window = display.kind() == DisplayKind.WINDOW;
        GameConfig.Clock clock = cfg.clock() != GameConfig.Clock.AUTO ? cfg.clock()
                : window ? GameConfig.Clock.REALTIME : GameConfig.Clock.LOCKSTEP;
        out.printf(Locale.ROOT, "weft-demo: level '%s', %d entities, %d workers, pipeline %s, clock %s, %d frames%n",
                cfg.level(), cfg.entities(), jobs.workerCount(), cfg.pipeline() ? "on" : "off",
                clock.name().toLowerCase(Locale.ROOT), cfg.frames());
        renderer.setClearColour(0.30f, 0.42f, 0.58f);
        FrameTimeGraph graph = new FrameTimeGraph();

        GpuTable gpu = new GpuTable();
        float[] agentMeshScales = uploadAgentAssets(renderer, gpu);
        int agentMeshKinds = gpu.meshes.size();
        int agentTextureKinds = gpu.textures.size();

        Loaded loaded = load(display, renderer, jobs, graph, gpu);
        Level level = loaded.level();
        CollisionWorld world = level.collision();
        CollisionWorld.WorldBounds bounds = world.bounds();

        Entities entities = Entities.spawn(cfg.entities(), cfg.seed(), world, agentMeshKinds, agentTextureKinds);
        int[] agentMeshIds = new int[agentMeshKinds];
        for (int k = 0; k < agentMeshKinds; k++) {
            agentMeshIds[k] = k;
        }
        int[] agentTextureIds = new int[agentTextureKinds];
        for (int k = 0; k < agentTextureKinds; k++) {
            agentTextureIds[k] = k;
        }
        FrameGraph.Props props = resolveProps(level, gpu);
        level.close();                                   // CPU-side copies are on the GPU now
        FrameGraph.MainThreadReport report = window ? titleReport(display) : null;
        FrameGraph frameGraph = new FrameGraph(new FrameGraph.Setup(jobs, entities, world,
                new FrameGraph.AgentKinds(agentMeshIds, agentMeshScales, agentTextureIds), props,
                gpu.meshes.size(), gpu.textures.size(),
                new FrameGraph.Gpu(gpu.meshes.toArray(Mesh[]::new), gpu.textures.toArray(Texture[]::new)),
                cfg.grain(), report, REPORT_EVERY_FRAMES, cfg.stageHook()));

        Camera camera = new Camera().perspective(60f, 0.1f, CameraPath.farPlane(bounds));
        DirectionalLight light = DirectionalLight.defaults();
        Histogram histogram = new Histogram(3);
        SlowestFrames slowest = new SlowestFrames(5);
        Histogram warm = new Histogram(3);               // frames from WARM_UP_FRAMES on: the JIT has compiled the loop
        long[] stageNanos = new long[FrameStage.values().length];
        InputClock inputs = new InputClock(clock, camera, bounds, display);
        int overBudget = 0;
        long visibleSum = 0;
        int frames = 0;
        Optional<RgbaImage> shot = Optional.empty();
        long budgetNanos = Math.round(RunSummary.BUDGET_MS * 1e6);

        JobHandle<FrameGraph.Output> pending = cfg.pipeline() ? frameGraph.submit(inputs.next(0)) : null;
        long last = System.nanoTime();
        for (int frame = 0; frame < cfg.frames() && !display.shouldClose(); frame++) {
            display.pollEvents();
            JobHandle<FrameGraph.Output> handle = cfg.pipeline() ? pending : frameGraph.submit(inputs.next(frame));
            FrameGraph.Output o = awaitFrame(handle, frameGraph);
            pending = null;
            if (cfg.pipeline() && frame + 1 < cfg.frames()) {
                pending = frameGraph.submit(inputs.next(frame + 1));   // N+1 simulates while N is drawn
            }
            renderer.beginFrame();
            camera.lookAt(o.eye, o.target);
            renderer.drawScene(camera, light, o.draws);
            renderer.drawFrameGraph(graph);
            if (frame == cfg.frames() - 1 && cfg.screenshot() != null && display.hasGl()) {
                shot = renderer.readFrame();             // before the swap
            }
            jobs.runMainThreadJobs(cfg.mainThreadBudgetNanos());
            display.swapBuffers();

            long now = System.nanoTime();
            long frameNanos = now - last;
            last = now;
            graph.recordNanos(frameNanos);
            histogram.recordValue(Math.max(1, frameNanos));
            slowest.record(frame, frameNanos);
            if (frame >= RunSummary.WARM_UP_FRAMES) {
                warm.recordValue(Math.max(1, frameNanos));
            }
            if (frameNanos > budgetNanos) {
                overBudget++;
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

        String screenshot = writeScreenshot(shot);
        long expectedRanges = frameGraph.framesSubmitted() * 3 * FrameGraph.rangesPerStage(cfg.entities(), cfg.grain());
        return new Played(cfg, kindName(display.kind()), clock.name().toLowerCase(Locale.ROOT), frames,
                loaded.loadingFrames(), histogram, overBudget, loaded.loadMs(), inputs.simTicks, visibleSum, stageNanos,
                frameGraph.rangesRun(), expectedRanges, frameGraph.entityUpdates(), loaded.failures(), screenshot,
                slowest, warm);
    }

    private FrameGraph.Output awaitFrame(JobHandle<FrameGraph.Output> handle, FrameGraph frameGraph) throws Watchdog {
        long start = System.nanoTime();
        try {
            return handle.join(cfg.watchdog());
        } catch (TimeoutException e) {
            throw new Watchdog(frameGraph.describeStall(System.nanoTime() - start));
        }
    }

    /** Frame inputs: ticks from the clock, camera from the path at the resulting simulated time. */
    private static final class InputClock {
        final GameConfig.Clock clock;
        final Camera camera;
        final CollisionWorld.WorldBounds bounds;
        final Display display;
        final Vector3f eye = new Vector3f();
        final Vector3f target = new Vector3f();
        final Matrix4f viewProjection = new Matrix4f();
        long simTicks;
        long accumulatedNanos;
        long lastNanos = System.nanoTime();

        InputClock(GameConfig.Clock clock, Camera camera, CollisionWorld.WorldBounds bounds, Display display) {
            this.clock = clock;
            this.camera = camera;
            this.bounds = bounds;
            this.display = display;
        }

        FrameGraph.Input next(long frame) {
            int ticks = 1;
            if (clock == GameConfig.Clock.REALTIME) {
                long now = System.nanoTime();
                accumulatedNanos += Math.min(now - lastNanos, 250_000_000L);
                lastNanos = now;
                ticks = (int) (accumulatedNanos / TICK_NANOS);
                if (ticks > MAX_TICKS_PER_FRAME) {
                    ticks = MAX_TICKS_PER_FRAME;
                    accumulatedNanos = 0;                // drop the backlog: slow down, do not spiral
                } else {
                    accumulatedNanos -= ticks * TICK_NANOS;
                }
            }
            simTicks += ticks;
            CameraPath.at(simTicks * (double) FrameGraph.TICK_SECONDS, bounds, eye, target);
            camera.lookAt(eye, target);
            int w = display.framebufferWidth();
            int h = display.framebufferHeight();
            camera.viewProjection(w > 0 && h > 0 ? (float) w / h : 16f / 9f, viewProjection);
            return new FrameGraph.Input(frame, ticks, viewProjection, eye, target);
        }
    }

    /** Uploads the agents' meshes (cube, ball) and textures; returns each mesh's scale per unit half extent. */
    private static float[] uploadAgentAssets(Renderer renderer, GpuTable gpu) {
        gpu.meshes.add(renderer.uploadMesh(ProceduralMeshes.cube(1f)));       // edge 1: scale by 2 * half
        gpu.meshes.add(renderer.uploadMesh(Shapes.uvSphere(1f, 16, 12)));     // radius 1: scale by half
        int[][] colours = {{0xE8A040, 0xF4E6C8}, {0x3C78C8, 0xDCE8F4}, {0xC84040, 0xF0D0D0}, {0x8050B0, 0xE0D0F0}};
        for (int[] c : colours) {
            gpu.textures.add(renderer.uploadTexture(ProceduralTextures.checker(64, 4, c[0], c[1])));
        }
        return new float[] {2f, 1f};
    }

    /**
     * The real asset pipeline: files read on I/O threads while fibers park, decoded on BACKGROUND jobs,
     * one job graph per level. {@code --asset-latency-ms} is added to every file read (a slow disk), so
     * the loading screen is visible even though the classpath is fast.
     */
    private LevelLoading realLoader(JobSystem jobs) {
        FaultPlan disk = cfg.assetLatency().isZero() ? FaultPlan.NONE
                : FaultPlan.builder().latency("*", cfg.assetLatency()).build();
        assets = AssetManager.builder(jobs).faults(disk).build();
        return new PipelineLevelLoading(assets);
    }

    private Loaded load(Display display, Renderer renderer, JobSystem jobs, FrameTimeGraph graph, GpuTable gpu)
            throws GameException {
        LevelLoading loading = cfg.loading() != null ? cfg.loading().apply(jobs) : realLoader(jobs);
        boolean windowShowsBar = display.kind() == DisplayKind.WINDOW;
        LoadProgressPrinter printer = new LoadProgressPrinter(out,
                LoadProgressPrinter.choose(windowShowsBar, cfg.progress(), out), cfg.level());
        long start = System.nanoTime();
        long deadline = start + cfg.loadTimeout().toNanos();
        LevelLoading.Handle load = loading.start(cfg.level());
        Level level = null;
        List<JobHandle<Mesh>> meshUploads = null;
        List<JobHandle<Texture>> textureUploads = null;
        int frames = 0;
        long last = start;
        for (;;) {
            long frameStart = System.nanoTime();
            display.pollEvents();
            if (display.shouldClose()) {
                load.cancel();
                printer.interrupt();
                throw new GameException(EXIT_FAILED, "window closed while loading level '" + cfg.level() + "'");
            }
            LevelLoading.Progress progress = load.progress();
            int uploadsDone = meshUploads == null ? 0 : countDone(meshUploads) + countDone(textureUploads);
            int uploadsTotal = meshUploads == null ? 0 : meshUploads.size() + textureUploads.size();
            float fraction = meshUploads == null ? (float) (0.95 * progress.fraction())
                    : 0.95f + 0.05f * uploadsDone / Math.max(1, uploadsTotal);
            renderer.beginFrame();
            renderer.drawLoadingScreen(fraction);
            renderer.drawFrameGraph(graph);
            jobs.runMainThreadJobs(cfg.mainThreadBudgetNanos());   // the uploads run here, a few per frame
            display.swapBuffers();
            printer.update(progress, meshUploads != null);
            frames++;

            if (meshUploads == null && load.isDone()) {
                Optional<Level> ready = load.level();
                for (LevelLoading.AssetFailure f : load.failures()) {
                    printer.interrupt();
                    out.println("weft-demo: level '" + cfg.level() + "': " + f);
                }
                if (ready.isEmpty()) {
                    printer.interrupt();
                    throw new GameException(EXIT_FAILED, "level '" + cfg.level() + "' could not be loaded: "
                            + (load.failures().isEmpty() ? "no reason given" : load.failures())
                            + " (levels shipped with the demo: " + String.join(", ", SHIPPED_LEVELS) + ")");
                }
                level = ready.get();
                meshUploads = new ArrayList<>();
                textureUploads = new ArrayList<>();
                for (Map.Entry<String, MeshSource> m : level.meshes().entrySet()) {
                    MeshSource src = m.getValue();
                    meshUploads.add(jobs.onMainThread("upload mesh " + m.getKey(), () -> renderer.uploadMesh(src)));
                }
                for (Map.Entry<String, TextureSource> t : level.textures().entrySet()) {
                    TextureSource src = t.getValue();
                    textureUploads.add(jobs.onMainThread("upload texture " + t.getKey(),
                            () -> renderer.uploadTexture(src)));
                }
            }
            if (meshUploads != null && countDone(meshUploads) == meshUploads.size()
                    && countDone(textureUploads) == textureUploads.size()) {
                break;
            }
            if (System.nanoTime() > deadline) {
                load.cancel();
                printer.interrupt();
                throw new GameException(EXIT_FAILED, "level '" + cfg.level() + "' did not load within "
                        + cfg.loadTimeout().toSeconds() + " s (" + load.progress() + ")");
            }
            long remaining = frameStart + TICK_NANOS - System.nanoTime();   // keep loading frames at ~60 Hz
            if (remaining > 0) {
                if (meshUploads == null) {
                    load.awaitDone(Duration.ofNanos(remaining));          // runs main-thread jobs meanwhile
                } else {
                    LockSupport.parkNanos(remaining);
                }
            }
            long now = System.nanoTime();
            graph.recordNanos(now - last);
            last = now;
        }
        int base = gpu.meshes.size();
        int i = 0;
        for (String name : level.meshes().keySet()) {
            gpu.levelMeshIds.put(name, base + i);
            gpu.meshes.add(meshUploads.get(i++).join());         // done: join returns at once (or throws)
        }
        base = gpu.textures.size();
        i = 0;
        for (String name : level.textures().keySet()) {
            gpu.levelTextureIds.put(name, base + i);
            gpu.textures.add(textureUploads.get(i++).join());
        }
        double loadMs = (System.nanoTime() - start) / 1e6;
        LevelLoading.Progress p = load.progress();
        printer.finish(p);
        String slowest = load.timings().stream().max(Comparator.comparingLong(LevelLoading.AssetTiming::endNanos))
                .map(t -> String.format(Locale.ROOT, "; last asset done: %s at %.0f ms", t.asset(), t.endNanos() / 1e6))
                .orElse("");
        out.printf(Locale.ROOT, "weft-demo: level '%s' loaded in %.0f ms: %d assets, %s, %d props, %d loading"
                        + " frames%s%n", cfg.level(), loadMs, p.assetsTotal(), LoadProgressPrinter.formatBytes(p.bytesTotal()),
                level.props().size(), frames, slowest);
        return new Loaded(level, loadMs, frames, load.failures().size());
    }

    private static int countDone(List<? extends JobHandle<?>> handles) {
        int n = 0;
        for (JobHandle<?> h : handles) {
            if (h.isDone()) {
                n++;
            }
        }
        return n;
    }

    /** Props to ids, model matrices (scale then translate) and world bounds from each mesh's vertices. */
    private static FrameGraph.Props resolveProps(Level level, GpuTable gpu) {
        Map<String, float[]> meshBounds = new HashMap<>();
        for (Map.Entry<String, MeshSource> m : level.meshes().entrySet()) {
            meshBounds.put(m.getKey(), localBounds(m.getValue()));
        }
        List<Level.Prop> props = level.props();
        int n = props.size();
        int[] meshIds = new int[n];
        int[] textureIds = new int[n];
        float[] models = new float[n * CommandBuffer.MATRIX_FLOATS];
        float[] bounds = new float[n * 6];
        Matrix4f m = new Matrix4f();
        for (int i = 0; i < n; i++) {
            Level.Prop p = props.get(i);
            meshIds[i] = gpu.levelMeshIds.get(p.mesh());
            textureIds[i] = gpu.levelTextureIds.get(p.texture());
            m.translation(p.x(), p.y(), p.z()).scale(p.scaleX(), p.scaleY(), p.scaleZ());
            m.get(models, i * CommandBuffer.MATRIX_FLOATS);
            float[] lb = meshBounds.get(p.mesh());
            float[] s = {p.scaleX(), p.scaleY(), p.scaleZ()};
            float[] t = {p.x(), p.y(), p.z()};
            for (int axis = 0; axis < 3; axis++) {
                float a = lb[axis] * s[axis] + t[axis];
                float b = lb[axis + 3] * s[axis] + t[axis];
                bounds[i * 6 + axis] = Math.min(a, b);
                bounds[i * 6 + 3 + axis] = Math.max(a, b);
            }
        }
        return new FrameGraph.Props(meshIds, textureIds, models, bounds);
    }

    private static float[] localBounds(MeshSource mesh) {
        FloatBuffer v = mesh.vertices();
        float[] b = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
        int base = v.position();
        for (int i = 0; i + 2 < v.remaining(); i += MeshSource.FLOATS_PER_VERTEX) {
            for (int axis = 0; axis < 3; axis++) {
                float c = v.get(base + i + axis);
                b[axis] = Math.min(b[axis], c);
                b[axis + 3] = Math.max(b[axis + 3], c);
            }
        }
        if (b[0] > b[3]) {
            return new float[6];                          // no vertices: a point at the origin
        }
        return b;
    }

    /** Puts a status line in the window title every few frames (a main-thread job queued by the merge job). */
    private static FrameGraph.MainThreadReport titleReport(Display display) {
        return (frame, visible, props, stageNanos) -> {
            long handle = display.glfwWindow();
            if (handle != 0L) {
                double ms = 0;
                for (long s : stageNanos) {
                    ms += s / 1e6;
                }
                GLFW.glfwSetWindowTitle(handle, String.format(Locale.ROOT,
                        "Weft demo - frame %d, %d entities + %d props visible, jobs %.2f ms", frame, visible, props, ms));
            }
        };
    }

    private String writeScreenshot(Optional<RgbaImage> shot) throws GameException {
        if (cfg.screenshot() == null || shot.isEmpty()) {
            return null;
        }
        RgbaImage img = shot.get();
        try {
            img.writePng(cfg.screenshot());
        } catch (IOException e) {
            throw new GameException(EXIT_FAILED, "cannot write --screenshot " + cfg.screenshot() + ": " + e, e);
        }
        out.println("weft-demo: screenshot " + cfg.screenshot() + " " + img.width() + "x" + img.height() + ", "
                + img.distinctColours() + " colours");
        return cfg.screenshot().toString();
    }

    private static String kindName(DisplayKind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
