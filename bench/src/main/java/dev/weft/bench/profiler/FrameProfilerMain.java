package dev.weft.bench.profiler;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the synthetic frame workload on each system in turn and writes the percentile tables and charts.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.weft.bench.profiler.FrameProfilerMain \
 *     --frames 600 --entities 10000 --out bench/target/profile
 * </pre>
 * Systems run one after another in one JVM with a fresh, identically seeded world each; each gets its
 * own warm-up frames, but code the workload shares is already compiled for the systems that run later.
 */
@Command(name = "FrameProfilerMain", mixinStandardHelpOptions = true,
        description = "Frame-time profile of a synthetic game frame on weft, forkjoin and vthreads.")
public final class FrameProfilerMain implements Callable<Integer> {

    @Option(names = "--frames", defaultValue = "600", description = "recorded frames per system (default: ${DEFAULT-VALUE})")
    int frames;

    @Option(names = "--warmup", defaultValue = "120", description = "unrecorded warm-up frames per system (default: ${DEFAULT-VALUE})")
    int warmupFrames;

    @Option(names = "--entities", defaultValue = "10000", description = "entities in the world (default: ${DEFAULT-VALUE})")
    int entities;

    @Option(names = "--grain", defaultValue = "256", description = "entities per parallel-for range at most (default: ${DEFAULT-VALUE})")
    int grain;

    @Option(names = "--workers", defaultValue = "2",
            description = "worker threads for weft and forkjoin; vthreads use the JDK default scheduler (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(names = "--hz", defaultValue = "60", description = "frame cadence and budget (default: ${DEFAULT-VALUE})")
    double hz;

    @Option(names = "--uncapped", description = "run frames back to back instead of at the --hz cadence (the budget stays 1/hz)")
    boolean uncapped;

    @Option(names = "--systems", split = ",", defaultValue = "weft,forkjoin,vthreads",
            description = "systems to profile, in order (default: ${DEFAULT-VALUE})")
    List<String> systems;

    @Option(names = "--seed", defaultValue = "42", description = "world seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--out", defaultValue = "bench/target/profile", description = "output folder (default: ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (frames < 1 || entities < 1 || grain < 1 || workers < 1 || !(hz > 0)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "frames, entities, grain, workers and hz must be positive");
        }
        long budgetNanos = Math.round(1e9 / hz);
        long interval = uncapped ? 0 : budgetNanos;
        FrameProfiler profiler = new FrameProfiler(entities, grain, seed);
        List<SystemProfile> results = new ArrayList<>();
        for (String system : systems) {
            System.out.printf(Locale.ROOT, "%s: %d warm-up + %d frames, %d entities...%n", system, warmupFrames, frames, entities);
            try (FrameScheduler scheduler = FrameScheduler.create(system, workers)) {
                SystemProfile p = profiler.run(scheduler, warmupFrames, frames, interval);
                System.out.printf(Locale.ROOT, "%s: p50 %.3f ms, p99 %.3f ms, max %.3f ms%n",
                        system, p.percentileMs(50), p.percentileMs(99), p.maxMs());
                results.add(p);
            }
        }
        ProfileReport.Config config = new ProfileReport.Config(frames, warmupFrames, entities, grain, workers,
                uncapped ? 0 : hz, budgetNanos, Runtime.version().toString(), Runtime.getRuntime().availableProcessors());
        ProfileReport report = new ProfileReport(config, results);
        report.writeTo(out);
        System.out.println();
        System.out.print(report.markdown());
        System.out.println();
        System.out.println("Wrote " + out.resolve(ProfileReport.MARKDOWN) + ", " + ProfileReport.JSON + ", " + ProfileReport.HTML);
        return report.checksumsAgree() ? 0 : 1;
    }

    /** Parses {@code args} and runs; returns the exit code (for tests). */
    public static int run(String... args) {
        return new CommandLine(new FrameProfilerMain()).execute(args);
    }

    /**
     * Weft needs {@code --add-opens java.base/java.lang=ALL-UNNAMED}; {@code java -cp} does not take it
     * from the jar's manifest. Without it, runs this class again in a child JVM that has it.
     */
    public static void main(String[] args) throws Exception {
        if (!javaLangOpen()) {
            System.exit(relaunchWithOpens(FrameProfilerMain.class, args));
        }
        System.exit(run(args));
    }

    /** Whether this JVM opens {@code java.lang} to the bench classes, as Weft's fibers need. */
    public static boolean javaLangOpen() {
        return Object.class.getModule().isOpen("java.lang", FrameProfilerMain.class.getModule());
    }

    /** Runs {@code main} with {@code args} in a child JVM that opens {@code java.lang}; returns its exit code. */
    public static int relaunchWithOpens(Class<?> main, String[] args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        System.err.println(main.getSimpleName() + ": restarting with --add-opens java.base/java.lang=ALL-UNNAMED (Weft needs it)");
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }
}
