package dev.weft.demo.game;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The demo's command line (picocli). {@link #execute} parses, runs the {@link Game} and returns the exit
 * status: 0 ok, 1 failure, 2 bad option (with a message and the usage), 3 watchdog.
 */
@Command(name = "weft-demo", mixinStandardHelpOptions = true, version = "weft-demo 0.1.0",
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Weft's demo game: a fixed-timestep game loop whose every frame is a Weft job graph "
                + "(simulate, cull, build, merge), with a level loaded in the background.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:ran", "1:failed (level load, a job threw)", "2:bad option",
            "3:watchdog: a frame's job graph hung"})
public final class DemoCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--frames", paramLabel = "N", description = "gameplay frames to run (default ${DEFAULT-VALUE})")
    int frames = 600;

    @Option(names = "--entities", paramLabel = "N", description = "dynamic entities (default ${DEFAULT-VALUE})")
    int entities = 10_000;

    @Option(names = "--workers", paramLabel = "N", description = "Weft worker threads (default: processors, ${DEFAULT-VALUE})")
    int workers = Runtime.getRuntime().availableProcessors();

    @Option(names = "--level", paramLabel = "NAME",
            description = "level to load: demo or tiny (default ${DEFAULT-VALUE})")
    String level = "demo";

    @Option(names = "--summary", paramLabel = "FILE",
            description = "write the exit summary as JSON (checked before the run: a file, not a directory, "
                    + "whose directory can be created)")
    Path summary;

    @Option(names = "--screenshot", paramLabel = "FILE",
            description = "write the last frame as PNG (headless: through the offscreen EGL display)")
    Path screenshot;

    @Option(names = "--trace", paramLabel = "FILE", description = "write a job trace (Chrome Trace Event JSON: open in ui.perfetto.dev)")
    Path trace;

    @Option(names = "--headless", description = "no window (also automatic when no display can be opened)")
    boolean headless;

    @Option(names = "--display", paramLabel = "KIND",
            description = "window|offscreen|none|auto (default ${DEFAULT-VALUE}: a window, else headless)")
    GameConfig.DisplayChoice display = GameConfig.DisplayChoice.AUTO;

    @Option(names = "--pipeline", description = "simulate frame N+1 while frame N is drawn")
    boolean pipeline;

    /** {@code --warm-up}'s and {@code --streaming}'s values. */
    enum OnOff { ON, OFF }

    @Option(names = "--warm-up", paramLabel = "on|off",
            description = "run the frame graph behind the loading screen before gameplay, on a throwaway copy of "
                    + "the entities, so the JIT has compiled it by frame 0: until the JIT is quiet, at most "
                    + WarmUp.MAX_FRAMES + " frames or " + WarmUp.MAX_NANOS / 1_000_000 + " ms (checked between frames: "
                    + "a frame slower than that runs to its end) (default ${DEFAULT-VALUE})")
    OnOff warmUp = OnOff.ON;

    @Option(names = "--compare-pipeline",
            description = "run twice, without and then with --pipeline (same seed and options), and print frame time "
                    + "and simulate-to-present latency side by side; --summary FILE gets both")
    boolean comparePipeline;

    @Option(names = "--progress", description = "draw the loading bar on the terminal even if stdout is not one")
    boolean progress;

    @Option(names = "--seed", paramLabel = "N", description = "entity placement seed (default ${DEFAULT-VALUE})")
    long seed = 1;

    @Option(names = "--clock", paramLabel = "MODE",
            description = "auto|lockstep|realtime: ticks per frame (default ${DEFAULT-VALUE}: realtime with a "
                    + "window, else lockstep = one 60 Hz tick per frame)")
    GameConfig.Clock clock = GameConfig.Clock.AUTO;

    @Option(names = "--asset-latency-ms", paramLabel = "MS",
            description = "extra time per asset file read, 0.." + GameConfig.MAX_ASSET_LATENCY_MS
                    + ": a slow disk, so the loading screen shows (default ${DEFAULT-VALUE})")
    long assetLatencyMs = 60;

    @Option(names = "--watchdog-ms", paramLabel = "MS",
            description = "give up (exit 3) when a frame's job graph takes longer (default ${DEFAULT-VALUE})")
    long watchdogMs = 5000;

    @Option(names = "--size", paramLabel = "WxH",
            description = "window / offscreen surface / screenshot size, at most " + GameConfig.MAX_SIZE
                    + " per side (default ${DEFAULT-VALUE})")
    String size = "1280x720";

    @Option(names = "--streaming", paramLabel = "on|off",
            description = "stream the chunked world around the camera during gameplay (default ${DEFAULT-VALUE})")
    OnOff streaming = OnOff.ON;

    /** {@code --frame-graph}: how a frame's stages wait for each other. */
    enum FrameGraphChoice { PARKED_WAITS, JOB_GRAPH }

    @Option(names = "--frame-graph", paramLabel = "parked-waits|job-graph", converter = FrameGraphChoiceConverter.class,
            description = "parked-waits: a root job parks between the stages; job-graph: the stages as a JobGraph, "
                    + "each queued when the one before ends, nothing parked (default parked-waits)")
    FrameGraphChoice frameGraph = FrameGraphChoice.PARKED_WAITS;

    @Option(names = "--compare-frame-graph",
            description = "run four times (parked-waits, job-graph, job-graph, parked-waits: same seed and options) "
                    + "and print frame and stage times of both styles side by side; not with --frame-graph")
    boolean compareFrameGraph;

    static final class FrameGraphChoiceConverter implements picocli.CommandLine.ITypeConverter<FrameGraphChoice> {
        @Override
        public FrameGraphChoice convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "parked-waits", "parked" -> FrameGraphChoice.PARKED_WAITS;
                case "job-graph", "jobgraph" -> FrameGraphChoice.JOB_GRAPH;
                default -> throw new picocli.CommandLine.TypeConversionException(
                        "--frame-graph wants parked-waits or job-graph, got '" + value + "'");
            };
        }
    }

    private PrintStream out = System.out;
    private LevelLoading.Factory loading;

    /**
     * Parses {@code args}, runs the game with levels from {@code loading}, and returns the exit status;
     * output goes to {@code out}/{@code err}.
     */
    public static int execute(String[] args, LevelLoading.Factory loading, PrintStream out, PrintStream err) {
        DemoCommand command = new DemoCommand();
        command.out = out;
        command.loading = Objects.requireNonNull(loading, "loading");
        CommandLine cl = new CommandLine(command)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
                .setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        return cl.execute(args);
    }

    @Override
    public Integer call() {
        GameConfig cfg;
        try {
            String[] wh = size.toLowerCase(Locale.ROOT).split("x", 2);
            if (wh.length != 2) {
                throw new IllegalArgumentException("--size wants WxH, e.g. 1280x720, got '" + size + "'");
            }
            int w;
            int h;
            try {
                w = Integer.parseInt(wh[0].trim());
                h = Integer.parseInt(wh[1].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--size wants WxH, e.g. 1280x720, got '" + size + "'");
            }
            cfg = GameConfig.builder().warmUp(warmUp == OnOff.ON).frames(frames).entities(entities).workers(workers).level(level)
                    .summary(summary).screenshot(screenshot).trace(trace).display(display).headless(headless)
                    .pipeline(pipeline).progress(progress).seed(seed).clock(clock)
                    .assetLatency(Duration.ofMillis(assetLatencyMs)).watchdog(Duration.ofMillis(watchdogMs))
                    .size(w, h).loading(loading).out(out).streaming(streaming == OnOff.ON)
                    .jobGraph(frameGraph == FrameGraphChoice.JOB_GRAPH).build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (compareFrameGraph || comparePipeline) {
            try {
                // Asked of the parse, not of the value: --frame-graph parked-waits (the default) is just as ignored.
                boolean frameGraphGiven = spec.commandLine().getParseResult().hasMatchedOption("--frame-graph");
                return compareFrameGraph ? FrameGraphComparison.run(cfg, comparePipeline, frameGraphGiven)
                        : PipelineComparison.run(cfg);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
        }
        try {
            Game.run(cfg);
            return Game.EXIT_OK;
        } catch (GameException e) {
            out.println("weft-demo: " + e.getMessage());
            if (e.exitCode() == Game.EXIT_FAILED && e.getCause() != null && !(e.getCause() instanceof java.io.IOException)) {
                e.getCause().printStackTrace(out);
            }
            return e.exitCode();
        }
    }
}
