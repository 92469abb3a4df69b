package dev.weft.demo.game;

import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.demo.render.Camera;
import dev.weft.demo.render.DirectionalLight;
import dev.weft.demo.render.FrameTimeGraph;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.window.Display;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * Warm-up behind the loading screen ({@code --warm-up on}, the default): before the first gameplay
 * frame, runs the real frame graph (simulate, cull, build, merge; the same classes, so the JIT compiles
 * the code gameplay runs) on a throwaway copy of the entities, draws its output and then the loading
 * screen over it, and discards everything. The game's own entities and its gameplay graph are not
 * touched, so the deterministic results (sim ticks, entity updates, ranges, the last frame's commands)
 * are the same with and without warm-up; only the first frames' times change.
 *
 * <p>Frames run until the JIT has been quiet (no compilation time added) for {@link #QUIET_FRAMES}
 * frames in a row, at least {@link #MIN_FRAMES} and at most {@link #MAX_FRAMES} of them or
 * {@link #MAX_NANOS}, whichever comes first; the time is checked between frames, so a single frame slower
 * than that runs to its end ({@link #stopReason}). The graph's root job is named {@value #ROOT_JOB_NAME} so a
 * trace tells these frames from gameplay. Main thread only.
 */
final class WarmUp {
    static final String ROOT_JOB_NAME = "warm-up frame";
    static final int MIN_FRAMES = 20;
    static final int QUIET_FRAMES = 10;
    static final int MAX_FRAMES = 300;
    /** Used when the JVM cannot report compilation time: as many frames as a second of gameplay. */
    static final int FIXED_FRAMES = 60;
    static final long MAX_NANOS = 3_000_000_000L;

    /** What the warm-up did: whether it ran, its frames and its wall time. */
    record Result(boolean on, int frames, double ms) {
        static Result off() {
            return new Result(false, 0, 0);
        }
    }

    private final GameConfig cfg;
    private final Display display;
    private final Renderer renderer;
    private final JobSystem jobs;
    private final FrameTimeGraph graph;

    WarmUp(GameConfig cfg, Display display, Renderer renderer, JobSystem jobs, FrameTimeGraph graph) {
        this.cfg = cfg;
        this.display = display;
        this.renderer = renderer;
        this.jobs = jobs;
        this.graph = graph;
    }

    /**
     * Runs the warm-up frames on a copy of {@code gameplay}'s entities (no main-thread report, no test
     * hook: those belong to gameplay frames).
     *
     * @throws Watchdog if a warm-up graph hangs, as a gameplay one would
     */
    Result run(FrameGraph.Setup gameplay) throws Watchdog {
        FrameGraph.Setup s = gameplay;
        FrameGraph warm = new FrameGraph(new FrameGraph.Setup(s.jobs(), s.entities().copy(), s.world(), s.agents(),
                s.props(), s.meshIdCount(), s.textureIdCount(), s.gpu(), s.grain(), null, s.reportEvery(), null));
        warm.rootJobName(ROOT_JOB_NAME);
        warm.style(cfg.frameGraphStyle());           // warm up the code the gameplay frames will run
        CollisionWorld.WorldBounds bounds = s.world().bounds();
        Camera camera = new Camera().perspective(60f, 0.1f, CameraPath.farPlane(bounds));
        DirectionalLight light = DirectionalLight.defaults();
        InputClock inputs = new InputClock(GameConfig.Clock.LOCKSTEP, camera, bounds, display);
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean jitTime = jit != null && jit.isCompilationTimeMonitoringSupported();

        long start = System.nanoTime();
        long last = start;
        long jitMs = jitTime ? jit.getTotalCompilationTime() : 0;
        int quiet = 0;
        int frames = 0;
        while (frames < MAX_FRAMES && System.nanoTime() - start < MAX_NANOS && !display.shouldClose()) {
            display.pollEvents();
            FrameGraph.Output o = await(warm.submit(inputs.next(frames)), warm);
            renderer.beginFrame();
            camera.lookAt(o.eye, o.target);
            renderer.drawScene(camera, light, o.draws);   // hidden: the loading screen covers it
            renderer.drawLoadingScreen(1f);
            renderer.drawFrameGraph(graph);
            jobs.runMainThreadJobs(cfg.mainThreadBudgetNanos());
            display.swapBuffers();
            long now = System.nanoTime();
            graph.recordNanos(now - last);
            last = now;
            frames++;
            if (jitTime) {
                long ms = jit.getTotalCompilationTime();
                quiet = ms == jitMs ? quiet + 1 : 0;
                jitMs = ms;
                if (frames >= MIN_FRAMES && quiet >= QUIET_FRAMES) {
                    break;
                }
            } else if (frames >= FIXED_FRAMES) {
                break;
            }
        }
        Result r = new Result(true, frames, (System.nanoTime() - start) / 1e6);
        cfg.out().printf(Locale.ROOT, "weft-demo: warm-up: %d frames of the frame graph in %.0f ms behind the loading"
                        + " screen (%s)%n", r.frames(), r.ms(), stopReason(jitTime, quiet, frames, r.ms()));
        return r;
    }

    /**
     * Why the warm-up ended, for its line. The time limit is checked between frames, and a frame cannot be
     * stopped halfway (its draws are on the main thread), so the frame under way at {@link #MAX_NANOS} ends
     * past it: by a few ms normally, by a minute when one frame is that slow (software GL at a large size).
     */
    static String stopReason(boolean jitTime, int quiet, int frames, double ms) {
        if (jitTime && quiet >= QUIET_FRAMES && frames >= MIN_FRAMES) {
            return "until the JIT was quiet for " + QUIET_FRAMES + " frames";
        }
        if (!jitTime && frames >= FIXED_FRAMES) {
            return "fixed count: this JVM does not report JIT time";
        }
        if (frames >= MAX_FRAMES) {
            return "cut off at " + MAX_FRAMES + " frames";
        }
        if (ms * 1e6 < MAX_NANOS) {
            return "the window was closed";
        }
        return String.format(Locale.ROOT, "cut off at %d ms, checked between frames: the last one ended at %.0f ms",
                MAX_NANOS / 1_000_000, ms);
    }

    private FrameGraph.Output await(JobHandle<FrameGraph.Output> handle, FrameGraph g) throws Watchdog {
        long t = System.nanoTime();
        try {
            return handle.join(cfg.watchdog());
        } catch (TimeoutException e) {
            throw new Watchdog("warm-up: " + g.describeStall(System.nanoTime() - t));
        }
    }
}
