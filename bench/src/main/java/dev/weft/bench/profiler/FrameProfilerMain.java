package dev.weft.bench.profiler;

import dev.weft.bench.ChildProcess;
import dev.weft.bench.Schedulers;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

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

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        validate();
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

    /**
     * Checks every option before the first frame, so a mistake costs nothing and no run is thrown away at
     * the end: picocli prints the message and the usage, and the exit status is 2.
     */
    private void validate() {
        require(frames >= 1, "--frames must be at least 1, got " + frames);
        require(warmupFrames >= 0, "--warmup must be 0 or more, got " + warmupFrames);
        require(entities >= 1, "--entities must be at least 1, got " + entities);
        require(grain >= 1, "--grain must be at least 1, got " + grain);
        require(workers >= 1 && workers <= 1024, "--workers must be 1..1024, got " + workers);
        require(hz > 0 && Double.isFinite(hz), "--hz must be a positive number of frames per second, e.g. 60, got " + hz);
        for (String system : systems) {
            require(Schedulers.SYSTEMS.contains(system), "--systems: unknown system '" + system
                    + "'; pass a comma-separated list of " + String.join(", ", Schedulers.SYSTEMS));
            // the report names rows, chart lines and JSON entries by system: a second 'weft' was a row
            // nobody could tell from the first (it ran with the shared code already compiled)
            require(systems.indexOf(system) == systems.lastIndexOf(system), "--systems: '" + system
                    + "' is named twice; name each system once (the report tells them apart by name)");
        }
        try {
            checkWritable(out);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--out " + out + ": cannot create or write that folder ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + "); pass a folder you can write to", e);
        }
    }

    private void require(boolean ok, String message) {
        if (!ok) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    /** Creates {@code dir} and writes (then deletes) a file there, which is what the report will do after the runs. */
    public static void checkWritable(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.delete(Files.createTempFile(dir, ".write-check", ".tmp"));
    }

    /** Parses {@code args} and runs; returns the exit code (for tests). */
    public static int run(String... args) {
        return new CommandLine(new FrameProfilerMain()).execute(args);
    }

    /** As {@link #run(String...)}, with picocli's messages (bad options, usage) going to {@code err}. */
    static int run(PrintWriter err, String... args) {
        return new CommandLine(new FrameProfilerMain()).setErr(err).execute(args);
    }

    /**
     * Weft needs {@code --add-opens java.base/java.lang=ALL-UNNAMED}; {@code java -cp} does not take it
     * from the jar's manifest. Without it, runs this class again in a child JVM that has it.
     */
    public static void main(String[] args) throws Exception {
        if (!javaLangOpen()) {
            // options first: a mistake, --help or --version then costs no second JVM
            int code = check(args);
            System.exit(code != VALID ? code : relaunchWithOpens(FrameProfilerMain.class, args));
        }
        System.exit(run(args));
    }

    private static final int VALID = -1;

    /** Parses and validates {@code args} without running: {@link #VALID}, or the exit code of help or a bad option. */
    static int check(String... args) {
        CommandLine cl = new CommandLine(new FrameProfilerMain());
        cl.setExecutionStrategy(parsed -> {
            Integer help = CommandLine.executeHelpRequest(parsed);
            if (help != null) {
                return help;
            }
            cl.<FrameProfilerMain>getCommand().validate();
            return VALID;
        });
        return cl.execute(args);
    }

    /** Whether this JVM opens {@code java.lang} to the bench classes, as Weft's fibers need. */
    public static boolean javaLangOpen() {
        return Object.class.getModule().isOpen("java.lang", FrameProfilerMain.class.getModule());
    }

    /**
     * Runs {@code main} with {@code args} in a child JVM that opens {@code java.lang}; returns its exit code.
     * Ending this JVM (SIGTERM, Ctrl-C) ends the child too.
     */
    public static int relaunchWithOpens(Class<?> main, String[] args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        System.err.println(main.getSimpleName() + ": restarting with --add-opens java.base/java.lang=ALL-UNNAMED (Weft needs it)");
        try (ChildProcess child = ChildProcess.start(new ProcessBuilder(command).inheritIO())) {
            return child.waitFor();
        }
    }
}
