package dev.weft.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Runs every Weft benchmark with one of two profiles, saves JMH's JSON and writes the ratio table.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.weft.bench.BenchMain quick      # ~4 min on 2 cores
 * java -cp bench/target/benchmarks.jar dev.weft.bench.BenchMain full       # ~25 min on 2 cores
 * java -cp bench/target/benchmarks.jar dev.weft.bench.BenchMain quick --include 'EmptyJobs|Fib' -p system=weft,forkjoin
 * </pre>
 * Needs JDK 25's {@code java}. Writes {@code <out>/jmh-<profile>.json} and {@code <out>/summary.md}.
 */
@Command(name = "BenchMain", mixinStandardHelpOptions = true,
        description = "Runs the Weft JMH benchmarks (weft vs forkjoin vs vthreads) and writes a ratio summary.")
public final class BenchMain implements Callable<Integer> {

    /** Run lengths: forks, warm-up iterations x time, measurement iterations x time. */
    public enum Profile {
        /** Only checks that everything runs (1 fork, 1 x 200 ms, 1 x 200 ms): the figures mean nothing. */
        smoke(1, 1, 200, 1, 200),
        /** 1 fork, 3 x 1 s warm-up, 3 x 1 s measurement: about 4 minutes on 2 cores (24 configurations). */
        quick(1, 3, 1000, 3, 1000),
        /** 3 forks, 5 x 2 s warm-up, 5 x 2 s measurement: about 25 minutes on 2 cores. */
        full(3, 5, 2000, 5, 2000);

        final int forks;
        final int warmupIterations;
        final int warmupMillis;
        final int measurementIterations;
        final int measurementMillis;

        Profile(int forks, int warmupIterations, int warmupMillis, int measurementIterations, int measurementMillis) {
            this.forks = forks;
            this.warmupIterations = warmupIterations;
            this.warmupMillis = warmupMillis;
            this.measurementIterations = measurementIterations;
            this.measurementMillis = measurementMillis;
        }
    }

    @Parameters(index = "0", defaultValue = "quick", description = "smoke, quick or full (default: ${DEFAULT-VALUE})")
    Profile profile;

    @Option(names = "--include", defaultValue = "dev\\.weft\\.bench\\..*",
            description = "JMH include regex over benchmark names (default: all Weft benchmarks)")
    String include;

    @Option(names = {"-p", "--param"}, description = "override a JMH parameter: -p system=weft,forkjoin")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--gc", negatable = true, defaultValue = "true",
            description = "attach -prof gc for allocation per operation (default: on; --no-gc to skip)")
    boolean gcProfiler;

    @Option(names = "--out", defaultValue = "bench/target/results", description = "result folder (default: ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(out);
        Path json = out.resolve("jmh-" + profile + ".json");
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(include)
                .forks(profile.forks)
                .warmupIterations(profile.warmupIterations)
                .warmupTime(TimeValue.milliseconds(profile.warmupMillis))
                .measurementIterations(profile.measurementIterations)
                .measurementTime(TimeValue.milliseconds(profile.measurementMillis))
                .resultFormat(ResultFormatType.JSON)
                .result(json.toString());
        if (!include.contains("RecordingOverhead")) {
            options.exclude("RecordingOverhead");   // measured apart, in alternating forks: RecordingOverheadMain
        }
        if (gcProfiler) {
            options.addProfiler("gc");
        }
        params.forEach((name, values) -> options.param(name, values.split(",")));
        new Runner(options.build()).run();

        List<RatioSummary.Row> rows = RatioSummary.read(json);
        String md = RatioSummary.markdown(rows, "Weft benchmarks, " + profile + " profile ("
                + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs)");
        Path summary = out.resolve("summary.md");
        Files.writeString(summary, md);
        System.out.println();
        System.out.print(md);
        System.out.println();
        System.out.println("JMH JSON: " + json.toAbsolutePath());
        System.out.println("Summary:  " + summary.toAbsolutePath());
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }
}
