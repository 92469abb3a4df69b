package dev.weft.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Prices the recording hooks while nothing records: runs {@link RecordingOverhead.HooksPresent} and
 * {@link RecordingOverhead.HooksCompiledOut} one fork each, alternating which goes first, for a number
 * of rounds, and writes each round's ratio and the median (see {@link OverheadSummary}).
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.weft.bench.RecordingOverheadMain               # 6 rounds, ~7 min
 * java -cp bench/target/benchmarks.jar dev.weft.bench.RecordingOverheadMain --rounds 12
 * </pre>
 * Writes {@code <out>/recording-overhead.md}. Reports; never fails on the figures.
 */
@Command(name = "RecordingOverheadMain", mixinStandardHelpOptions = true,
        description = "EmptyJobs on Weft with the recording hooks live vs compiled out, alternating forks.")
public final class RecordingOverheadMain implements Callable<Integer> {
    static final String PRESENT = "HooksPresent";
    static final String COMPILED_OUT = "HooksCompiledOut";
    private static final List<String> SUBMITTERS = List.of("thread", "job");

    @Spec
    CommandSpec spec;                                  // the running command line: its err stream gets the message

    @Option(names = "--rounds", defaultValue = "6", description = "fork pairs (default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--warmup", defaultValue = "3", description = "warm-up iterations of 1 s per fork (default: ${DEFAULT-VALUE})")
    int warmupIterations;

    @Option(names = "--iterations", defaultValue = "4", description = "measured iterations of 1 s per fork (default: ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--submitter", split = ",", defaultValue = "thread,job",
            description = "EmptyJobs submitters to measure (default: ${DEFAULT-VALUE})")
    List<String> submitters;

    @Option(names = "--workers", split = ",", defaultValue = "1,2",
            description = "worker counts to measure (default: ${DEFAULT-VALUE})")
    List<String> workers;

    @Option(names = "--out", defaultValue = "bench/target/results", description = "result folder (default: ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || iterations < 1 || warmupIterations < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--rounds and --iterations must be at least 1, --warmup at least 0");
        }
        // JMH takes @Param values as strings: a value EmptyJobs cannot use failed every fork (its error
        // only in the fork's log), and the run then wrote an empty table and exited 0. Refused up front.
        for (String s : submitters) {
            if (!SUBMITTERS.contains(s)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--submitter " + s + ": use " + String.join(" or ", SUBMITTERS) + " (a comma-separated list)");
            }
        }
        for (String w : workers) {
            if (!w.matches("[0-9]{1,4}") || Integer.parseInt(w) < 1 || Integer.parseInt(w) > Schedulers.MAX_WORKERS) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--workers " + w + ": each worker count must be a whole number from 1 to " + Schedulers.MAX_WORKERS);
            }
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--out " + out + " is a file: name a folder (it is created if missing)");
        }
        List<OverheadSummary.Sample> samples = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            // Alternate which variant goes first, so a machine that slows down (or speeds up) over the
            // run does not favour one side.
            List<String> order = round % 2 == 0 ? List.of(PRESENT, COMPILED_OUT) : List.of(COMPILED_OUT, PRESENT);
            for (String variant : order) {
                System.out.printf("%n== round %d/%d: %s ==%n", round + 1, rounds, variant);
                for (RunResult r : runOne(variant)) {
                    String config = "submitter=" + r.getParams().getParam("submitter")
                            + " workers=" + r.getParams().getParam("workers");
                    samples.add(new OverheadSummary.Sample(round, variant, config, r.getPrimaryResult().getScore()));
                }
            }
        }
        if (samples.isEmpty()) {
            System.err.println("RecordingOverheadMain: no fork produced a result (see the JMH errors above); nothing written");
            return 1;
        }
        String md = OverheadSummary.markdown(samples, "Recording hooks while nothing records: EmptyJobs on Weft, "
                + rounds + " alternating fork pairs (" + Runtime.version() + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs)");
        Files.createDirectories(out);
        Path file = out.resolve("recording-overhead.md");
        Files.writeString(file, md);
        System.out.println();
        System.out.print(md);
        System.out.println("Written: " + file.toAbsolutePath());
        return 0;
    }

    private Collection<RunResult> runOne(String variant) throws Exception {
        return new Runner(new OptionsBuilder()
                .include("dev\\.weft\\.bench\\.RecordingOverhead\\." + variant + "\\.")
                .param("submitter", submitters.toArray(String[]::new))
                .param("workers", workers.toArray(String[]::new))
                .forks(1)
                .warmupIterations(warmupIterations)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(iterations)
                .measurementTime(TimeValue.seconds(1))
                .build()).run();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new RecordingOverheadMain()).execute(args));
    }
}
