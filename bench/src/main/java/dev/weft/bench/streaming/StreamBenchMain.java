package dev.weft.bench.streaming;

import dev.weft.bench.profiler.FrameProfilerMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * "The frame loop while streaming" (issue 12 item 4): a 60 Hz frame loop on the main thread with and
 * without a stream of BACKGROUND assets, for every {@link Variant}, in one JVM, one after another.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.weft.bench.streaming.StreamBenchMain --out bench/target/stream-bench
 * </pre>
 * Exits 1 when the runs did different frame work or an asset failed or did not finish; a missed target
 * is a result, not an error.
 */
@Command(name = "StreamBenchMain", mixinStandardHelpOptions = true,
        description = "Frame times of a 60 Hz loop with and without background asset streaming, per system variant.")
public final class StreamBenchMain implements Callable<Integer> {

    @Spec
    CommandSpec spec;                                  // the running command line: its err stream gets the message

    @Option(names = "--frames", defaultValue = "240", description = "measured frames per run (default: ${DEFAULT-VALUE})")
    int frames;

    @Option(names = "--warmup", defaultValue = "60", description = "warm-up frames per run, reported apart (default: ${DEFAULT-VALUE})")
    int warmupFrames;

    @Option(names = "--entities", defaultValue = "10000", description = "entities integrated per frame (default: ${DEFAULT-VALUE})")
    int entities;

    @Option(names = "--frame-cpu-ms", defaultValue = "4", description = "CPU time of one frame's work, summed over threads (default: ${DEFAULT-VALUE})")
    double frameCpuMs;

    @Option(names = "--grain", defaultValue = "256", description = "entities per range at most (default: ${DEFAULT-VALUE})")
    int grain;

    @Option(names = "--workers", defaultValue = "2", description = "workers for weft and forkjoin (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(names = "--hz", defaultValue = "60", description = "tick rate and budget (default: ${DEFAULT-VALUE})")
    double hz;

    @Option(names = "--assets", defaultValue = "30", description = "assets streamed over the measured frames (default: ${DEFAULT-VALUE})")
    int assets;

    @Option(names = "--read-ms", defaultValue = "100", description = "each asset's blocking read (default: ${DEFAULT-VALUE})")
    long readMs;

    @Option(names = "--decode-min-ms", defaultValue = "5", description = "shortest decode (default: ${DEFAULT-VALUE})")
    double decodeMinMs;

    @Option(names = "--decode-max-ms", defaultValue = "20", description = "longest decode (default: ${DEFAULT-VALUE})")
    double decodeMaxMs;

    @Option(names = "--checkpoint-ms", defaultValue = "0.5", description = "decode work between checkpoints (default: ${DEFAULT-VALUE})")
    double checkpointMs;

    @Option(names = "--variants", split = ",", description = "variants to run, in order (default: all of weft, "
            + "weft-cap-off, weft-checkpoints-off, weft-waitersHelp-off, weft-all-off, forkjoin, vthreads)")
    List<String> variants;

    @Option(names = "--rounds", defaultValue = "3", description = "rounds the frames and assets are split over; "
            + "each round runs every variant, in reverse order every other round, so load from other processes "
            + "spreads over all of them (default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--drain-timeout-s", defaultValue = "60", description = "wait for the last assets at most (default: ${DEFAULT-VALUE})")
    long drainTimeoutSeconds;

    @Option(names = "--seed", defaultValue = "42", description = "entity and asset seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--out", defaultValue = "bench/target/stream-bench", description = "output folder (default: ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() throws Exception {
        String problem = problem();
        if (problem != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), problem);
        }
        List<Variant> chosen;
        try {
            chosen = variants == null ? Variant.ALL : variants.stream().map(Variant::named).toList();
        } catch (IllegalArgumentException unknown) {
            throw new CommandLine.ParameterException(spec.commandLine(), unknown.getMessage());
        }
        FrameLoop.Settings settings = new FrameLoop.Settings(frames / rounds, warmupFrames, entities, grain, workers,
                Math.round(1e9 / hz), assets / rounds, readMs, decodeMinMs, decodeMaxMs, checkpointMs, seed,
                Duration.ofSeconds(drainTimeoutSeconds));
        Calibration calibration = Calibration.measure(entities, frameCpuMs, seed);
        System.out.printf(Locale.ROOT, "calibrated: %d substeps per entity (%.2f ns each), %d decode units per ms%n",
                calibration.substeps(), calibration.nsPerEntitySubstep(), calibration.unitsPerMs());
        FrameLoop loop = new FrameLoop(settings, calibration);
        Map<Variant, List<RunResult>> without = new LinkedHashMap<>();
        Map<Variant, List<RunResult>> with = new LinkedHashMap<>();
        for (Variant v : chosen) {
            without.put(v, new ArrayList<>());
            with.put(v, new ArrayList<>());
        }
        for (int r = 0; r < rounds; r++) {
            List<Variant> order = new ArrayList<>(chosen);
            if (r % 2 == 1) {
                Collections.reverse(order);
            }
            for (Variant v : order) {
                boolean streamFirst = r % 2 == 1;
                for (boolean streamed : new boolean[] {streamFirst, !streamFirst}) {
                    (streamed ? with : without).get(v).add(runOne(loop, v, streamed, r));
                }
            }
        }
        List<StreamReport.Pair> pairs = new ArrayList<>();
        for (Variant v : chosen) {
            pairs.add(new StreamReport.Pair(RunResult.merge(without.get(v)), RunResult.merge(with.get(v))));
        }
        StreamReport report = new StreamReport(new StreamReport.Config(settings, rounds, calibration, Runtime.version().toString(),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors() + " (CPUs)")),
                pairs);
        report.writeTo(out);
        System.out.println();
        System.out.print(report.markdown());
        System.out.println();
        System.out.println("Wrote " + out.resolve(StreamReport.MARKDOWN) + ", " + StreamReport.JSON + ", "
                + StreamReport.CSV + ", " + StreamReport.HTML);
        boolean assetsOk = pairs.stream().allMatch(p -> p.with().failure() == null
                && p.with().assetsFinished() == p.with().assetsSubmitted());
        return report.checksumsAgree() && assetsOk ? 0 : 1;
    }

    /**
     * The first option that cannot be used, named with its value and what it must be, or null. One
     * message per option: a list of every rule left the user to find which of a dozen values was wrong.
     * Checked before calibration, so a mistake costs no run (an {@code --out} file used to fail only
     * after every variant had run).
     */
    private String problem() {
        if (frames < 1) return "--frames " + frames + ": must be at least 1";
        if (warmupFrames < 0) return "--warmup " + warmupFrames + ": must be 0 or more";
        if (entities < 1) return "--entities " + entities + ": must be at least 1";
        if (grain < 1) return "--grain " + grain + ": must be at least 1";
        if (workers < 1) return "--workers " + workers + ": must be at least 1";
        if (!(hz > 0)) return "--hz " + hz + ": must be above 0";
        if (!(frameCpuMs > 0)) return "--frame-cpu-ms " + frameCpuMs + ": must be above 0";
        if (assets < 0) return "--assets " + assets + ": must be 0 or more";
        if (readMs < 0) return "--read-ms " + readMs + ": must be 0 or more";
        if (!(decodeMinMs > 0)) return "--decode-min-ms " + decodeMinMs + ": must be above 0";
        if (decodeMaxMs < decodeMinMs) {
            return "--decode-max-ms " + decodeMaxMs + ": must be at least --decode-min-ms (" + decodeMinMs + ")";
        }
        if (!(checkpointMs > 0)) return "--checkpoint-ms " + checkpointMs + ": must be above 0";
        if (rounds < 1) return "--rounds " + rounds + ": must be at least 1";
        if (frames % rounds != 0 || assets % rounds != 0) {
            return "--rounds " + rounds + ": must divide --frames (" + frames + ") and --assets (" + assets + ")";
        }
        if (Files.exists(out) && !Files.isDirectory(out)) return "--out " + out + " is a file: name a folder";
        return null;
    }

    private static RunResult runOne(FrameLoop loop, Variant v, boolean streamed, int round) throws InterruptedException {
        RunResult r = loop.run(v, streamed, round);
        System.out.printf(Locale.ROOT, "round %d %-22s %-9s load %.1f, p50 %.3f ms, p99 %.3f ms, max %.3f ms, assets %d/%d%n",
                round, v.name(), r.runName(), r.loadAverage(), r.measured().percentileMs(50), r.measured().percentileMs(99),
                r.measured().maxMs(),
                r.assetsFinished(), r.assetsSubmitted());
        return r;
    }

    /** Parses {@code args} and runs; returns the exit code (for tests). */
    public static int run(String... args) {
        return new CommandLine(new StreamBenchMain()).execute(args);
    }

    public static void main(String[] args) throws Exception {
        if (!FrameProfilerMain.javaLangOpen()) {
            System.exit(FrameProfilerMain.relaunchWithOpens(StreamBenchMain.class, args));
        }
        System.exit(run(args));
    }
}
