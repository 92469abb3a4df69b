package dev.weft.demo.game;

import dev.weft.demo.window.DisplayKind;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything a {@link Game} run needs; {@link DemoCommand} makes one from the command line, tests make
 * one with {@link #builder()}.
 *
 * @param warmUp          run the frame graph behind the loading screen before gameplay ({@link WarmUp})
 * @param clock           {@link Clock#AUTO} means real time with a window, lockstep otherwise
 * @param assetLatency    extra time per asset file read, handed to the loader (a slow disk)
 * @param mainThreadBudgetNanos budget for {@code runMainThreadJobs} each frame
 * @param loading         makes the level loader; required ({@code DemoMain} passes the real one, so the
 *                        game package never depends on a loader implementation)
 * @param stageHook       test seam, null normally: see {@link FrameStage.Hook}
 * @param out             where the run reports (notices, progress, summary)
 * @param streaming       stream the chunked world around the camera during gameplay ({@code --streaming})
 * @param jobGraph        run each frame's stages as a {@link dev.weft.JobGraph} instead of a root job that
 *                        parks between them ({@code --frame-graph job-graph})
 */
public record GameConfig(int frames, int entities, int workers, String level, Path summary, Path screenshot,
                         Path trace, DisplayChoice display, boolean headless, boolean pipeline, boolean warmUp,
                         boolean progress,
                         long seed, Duration assetLatency, Clock clock, Duration watchdog, int width, int height,
                         long mainThreadBudgetNanos, Duration loadTimeout, int grain,
                         LevelLoading.Factory loading, FrameStage.Hook stageHook,
                         PrintStream out, boolean streaming, boolean jobGraph) {

    /** {@code --display}: which backend to try first. */
    public enum DisplayChoice { AUTO, WINDOW, OFFSCREEN, NONE }

    /**
     * How many 60 Hz ticks a frame simulates. LOCKSTEP: exactly one, frames as fast as they go (the
     * default without a window: deterministic, and frame times measure the work). REALTIME: as many as
     * real time has accumulated, at most {@link Game#MAX_TICKS_PER_FRAME} (the default with a window).
     */
    public enum Clock { AUTO, LOCKSTEP, REALTIME }

    /**
     * Largest {@code --size} side. The size is the window's or the offscreen surface's, and a screenshot
     * reads back width x height x 4 bytes; 8192 covers 8K (7680x4320). Beyond it GL implementations refuse
     * or clamp the surface (Mesa's llvmpipe stops at 16384), and software GL is slow near it: on llvmpipe a
     * 2-frame run took 27 s at 8192x8192 (9 s at 1280x720), and one at 20000x20000 had a 76 s frame.
     */
    public static final int MAX_SIZE = 8192;

    /** Largest {@code --asset-latency-ms}: a very slow disk; beyond it a level takes minutes to load, or never. */
    public static final long MAX_ASSET_LATENCY_MS = 10_000;

    public GameConfig {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(display, "display");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(assetLatency, "assetLatency");
        Objects.requireNonNull(watchdog, "watchdog");
        Objects.requireNonNull(loadTimeout, "loadTimeout");
        Objects.requireNonNull(loading, "loading");
        Objects.requireNonNull(out, "out");
        check(frames >= 1, "--frames must be at least 1, got " + frames);
        check(entities >= 0 && entities <= 2_000_000, "--entities must be 0..2000000, got " + entities);
        check(workers >= 1 && workers <= 1024, "--workers must be 1..1024, got " + workers);
        check(!level.isBlank(), "--level must not be empty");
        check(!assetLatency.isNegative() && assetLatency.toMillis() <= MAX_ASSET_LATENCY_MS,
                "--asset-latency-ms must be 0.." + MAX_ASSET_LATENCY_MS + ", got " + assetLatency.toMillis());
        check(watchdog.toMillis() >= 1, "--watchdog-ms must be at least 1");
        check(width >= 1 && height >= 1 && width <= MAX_SIZE && height <= MAX_SIZE,
                "--size must be 1.." + MAX_SIZE + " per side, got " + width + "x" + height);
        check(mainThreadBudgetNanos >= 0, "main-thread budget must not be negative");
        check(grain >= 1, "grain must be at least 1");
        check(!(headless && display == DisplayChoice.WINDOW), "--headless and --display window contradict each other");
        // Written at the end of the run: a path that cannot be written would lose the run's results.
        OutputFiles.check("--summary", summary);
        OutputFiles.check("--trace", trace);
        OutputFiles.check("--screenshot", screenshot);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * The display backends to try, in order; always ends with {@link DisplayKind#NONE}, so opening never
     * fails. {@code auto} skips the offscreen GL surface unless a screenshot wants GL: nobody would see it.
     * {@code --headless} means no window: no GL at all, or the offscreen surface for a screenshot.
     */
    public List<DisplayKind> displayChain() {
        if (headless) {
            return display == DisplayChoice.OFFSCREEN || (display == DisplayChoice.AUTO && screenshot != null)
                    ? List.of(DisplayKind.OFFSCREEN, DisplayKind.NONE)
                    : List.of(DisplayKind.NONE);
        }
        return switch (display) {
            case AUTO -> screenshot != null
                    ? List.of(DisplayKind.WINDOW, DisplayKind.OFFSCREEN, DisplayKind.NONE)
                    : List.of(DisplayKind.WINDOW, DisplayKind.NONE);
            case WINDOW -> DisplayKind.WINDOW.fallbackChain();
            case OFFSCREEN -> DisplayKind.OFFSCREEN.fallbackChain();
            case NONE -> List.of(DisplayKind.NONE);
        };
    }

    /** This configuration with {@code pipeline} set and no output files: one run of a {@link PipelineComparison}. */
    GameConfig comparisonRun(boolean pipelined) {
        return comparisonRun(pipelined, jobGraph);
    }

    /** As above, with the frame graph's style set too: one run of a {@link FrameGraphComparison}. */
    GameConfig comparisonRun(boolean pipelined, boolean asJobGraph) {
        return new GameConfig(frames, entities, workers, level, null, null, null, display, headless, pipelined, warmUp,
                progress, seed, assetLatency, clock, watchdog, width, height, mainThreadBudgetNanos, loadTimeout, grain,
                loading, stageHook, out, streaming, asJobGraph);
    }

    /** The frame graph's style this configuration asks for. */
    FrameGraph.Style frameGraphStyle() {
        return jobGraph ? FrameGraph.Style.JOB_GRAPH : FrameGraph.Style.PARKED_WAITS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Defaults as on the command line, except {@link #loading}, which has none: set it. */
    public static final class Builder {
        private int frames = 600;
        private int entities = 10_000;
        private int workers = Runtime.getRuntime().availableProcessors();
        private String level = "demo";
        private Path summary;
        private Path screenshot;
        private Path trace;
        private DisplayChoice display = DisplayChoice.AUTO;
        private boolean headless;
        private boolean pipeline;
        private boolean warmUp = true;
        private boolean progress;
        private long seed = 1;
        private Duration assetLatency = Duration.ofMillis(60);
        private Clock clock = Clock.AUTO;
        private Duration watchdog = Duration.ofSeconds(5);
        private int width = 1280;
        private int height = 720;
        private long mainThreadBudgetNanos = 2_000_000;
        private Duration loadTimeout = Duration.ofMinutes(2);
        private int grain = 256;
        private LevelLoading.Factory loading;
        private FrameStage.Hook stageHook;
        private PrintStream out = System.out;
        private boolean streaming = true;
        private boolean jobGraph;

        private Builder() {}

        public Builder frames(int v) { frames = v; return this; }
        public Builder entities(int v) { entities = v; return this; }
        public Builder workers(int v) { workers = v; return this; }
        public Builder level(String v) { level = v; return this; }
        public Builder summary(Path v) { summary = v; return this; }
        public Builder screenshot(Path v) { screenshot = v; return this; }
        public Builder trace(Path v) { trace = v; return this; }
        public Builder display(DisplayChoice v) { display = v; return this; }
        public Builder headless(boolean v) { headless = v; return this; }
        public Builder pipeline(boolean v) { pipeline = v; return this; }
        public Builder warmUp(boolean v) { warmUp = v; return this; }
        public Builder progress(boolean v) { progress = v; return this; }
        public Builder seed(long v) { seed = v; return this; }
        public Builder assetLatency(Duration v) { assetLatency = v; return this; }
        public Builder clock(Clock v) { clock = v; return this; }
        public Builder watchdog(Duration v) { watchdog = v; return this; }
        public Builder size(int w, int h) { width = w; height = h; return this; }
        public Builder mainThreadBudgetNanos(long v) { mainThreadBudgetNanos = v; return this; }
        public Builder loadTimeout(Duration v) { loadTimeout = v; return this; }
        public Builder grain(int v) { grain = v; return this; }
        public Builder loading(LevelLoading.Factory v) { loading = v; return this; }
        public Builder stageHook(FrameStage.Hook v) { stageHook = v; return this; }
        public Builder out(PrintStream v) { out = v; return this; }
        public Builder streaming(boolean v) { streaming = v; return this; }
        public Builder jobGraph(boolean v) { jobGraph = v; return this; }

        /** @throws IllegalArgumentException naming the bad option */
        public GameConfig build() {
            return new GameConfig(frames, entities, workers, level, summary, screenshot, trace, display, headless,
                    pipeline, warmUp, progress, seed, assetLatency, clock, watchdog, width, height, mainThreadBudgetNanos,
                    loadTimeout, grain, loading, stageHook, out, streaming, jobGraph);
        }
    }
}
