package dev.weft.bench;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.IntUnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The cost of one fork/join node, in ns, as the minimum, 10th percentile and median of many short
 * samples: for A/B comparisons of the scheduler's per-node path where JMH's means cannot resolve them.
 *
 * <p>Why not JMH alone: on this project's 2-vCPU VM, {@code Fib} on one worker moves by up to 2x from one
 * JMH iteration to the next, and by 30% from one JVM to the next, with the same jar (how C2 happens to
 * inline the recursion). A change worth 5% per node is invisible in fork means. The minimum of many
 * samples of a few fib trees each is stable within a JVM; comparing two jars then takes several JVMs of
 * each, alternated, and the spread of their minima:
 *
 * <pre>
 * for r in 1 2 3 4 5 6 7 8; do for jar in old.jar new.jar; do
 *   java --add-opens java.base/java.lang=ALL-UNNAMED -cp $jar dev.weft.bench.NodeCost --style fork --workers 1
 * done; done
 * </pre>
 *
 * It runs the same node code as the {@code Fib} benchmark (the {@link SchedulerUnderTest} adapters), one
 * system and style per JVM so that no other system's code shares the JIT's profiles.
 */
@Command(name = "NodeCost", mixinStandardHelpOptions = true,
        description = "ns per fork/join node: min, p10 and median of many short samples of fib(n).")
public final class NodeCost implements Callable<Integer> {

    private static final List<String> STYLES = List.of("counter", "handle", "fork");
    private static final int MAX_N = 32;               // 7 million nodes a tree: seconds per sample already

    @Spec
    CommandSpec spec;                                  // the running command line: its err stream gets the message

    @Option(names = "--system", defaultValue = "weft", description = "weft, forkjoin or vthreads (default: ${DEFAULT-VALUE})")
    String system;

    @Option(names = "--style", defaultValue = "fork", description = "counter, handle or fork, as in Fib (default: ${DEFAULT-VALUE})")
    String style;

    @Option(names = "--workers", defaultValue = "1", description = "worker threads (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(names = "--n", defaultValue = "" + Fib.N, description = "fib(n) per tree (default: ${DEFAULT-VALUE})")
    int n;

    @Option(names = "--warmup", defaultValue = "300", description = "trees run before measuring (default: ${DEFAULT-VALUE})")
    int warmupTrees;

    @Option(names = "--samples", defaultValue = "60", description = "samples of 5 trees each (default: ${DEFAULT-VALUE})")
    int samples;

    /** One measurement: ns per node over the samples, sorted ascending. */
    public record Result(String system, String style, int workers, int n, double[] sortedNsPerNode) {
        public double min() {
            return sortedNsPerNode[0];
        }

        public double p10() {
            return sortedNsPerNode[sortedNsPerNode.length / 10];
        }

        public double median() {
            return sortedNsPerNode[sortedNsPerNode.length / 2];
        }

        /** One line, the same for every run, for grep and side-by-side reading. */
        public String line() {
            return String.format("%s %s workers=%d fib(%d): ns/node min %.1f p10 %.1f median %.1f (%d samples)",
                    system, style, workers, n, min(), p10(), median(), sortedNsPerNode.length);
        }
    }

    /** Calls of fib in the tree of fib(n): every node, leaves included (57,313 for 22). */
    public static long nodes(int n) {
        long a = 1;                                     // nodes(0)
        long b = 1;                                     // nodes(1)
        for (int i = 2; i <= n; i++) {
            long c = a + b + 1;
            a = b;
            b = c;
        }
        return n == 0 ? a : b;
    }

    /** The fib of {@code n} without any scheduler: what every tree must compute. */
    static int fibPlain(int n) {
        int a = 0;
        int b = 1;
        for (int i = 0; i < n; i++) {
            int c = a + b;
            a = b;
            b = c;
        }
        return a;
    }

    /** Measures {@code style} on {@code scheduler}; throws if a tree computes the wrong value. */
    public static Result measure(SchedulerUnderTest scheduler, String style, int workers, int n, int warmupTrees,
                                 int samples) {
        if (samples < 1) {
            throw new IllegalArgumentException("samples must be >= 1, got " + samples);
        }
        IntUnaryOperator tree = switch (style) {
            case "counter" -> scheduler::fib;
            case "handle" -> scheduler::fibHandles;
            case "fork" -> scheduler::fibFork;
            default -> throw new IllegalArgumentException("style must be counter, handle or fork, got " + style);
        };
        int expected = fibPlain(n);
        for (int i = 0; i < warmupTrees; i++) {
            check(tree.applyAsInt(n), expected, scheduler, n);
        }
        final int treesPerSample = 5;
        double nodesPerSample = (double) nodes(n) * treesPerSample;
        double[] ns = new double[samples];
        for (int s = 0; s < samples; s++) {
            long start = System.nanoTime();
            int sum = 0;
            for (int t = 0; t < treesPerSample; t++) {
                sum += tree.applyAsInt(n);
            }
            ns[s] = (System.nanoTime() - start) / nodesPerSample;
            check(sum, expected * treesPerSample, scheduler, n);
        }
        Arrays.sort(ns);
        return new Result(scheduler.name(), style, workers, n, ns);
    }

    private static void check(int got, int expected, SchedulerUnderTest scheduler, int n) {
        if (got != expected) {
            throw new IllegalStateException(scheduler.name() + ": fib(" + n + ") trees summed to " + got
                    + ", expected " + expected);
        }
    }

    @Override
    public Integer call() {
        // Checked here, before a scheduler starts: the checks further down threw from inside the run,
        // so picocli printed a stack trace with exit status 1, and --n -1 read as a wrong fib result.
        String problem = !Schedulers.SYSTEMS.contains(system) ? "--system " + system + ": use one of " + Schedulers.SYSTEMS
                : !STYLES.contains(style) ? "--style " + style + ": use one of " + STYLES
                : workers < 1 || workers > Schedulers.MAX_WORKERS ? "--workers " + workers + ": must be from 1 to " + Schedulers.MAX_WORKERS
                : n < 0 || n > MAX_N ? "--n " + n + ": must be from 0 to " + MAX_N + " (fib(" + MAX_N + ") is "
                        + nodes(MAX_N) + " nodes a tree)"
                : warmupTrees < 0 ? "--warmup " + warmupTrees + ": must be 0 or more"
                : samples < 1 ? "--samples " + samples + ": must be at least 1"
                : null;
        if (problem != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), problem);
        }
        try (SchedulerUnderTest scheduler = Schedulers.create(system, workers)) {
            System.out.println(measure(scheduler, style, workers, n, warmupTrees, samples).line());
        }
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new NodeCost()).execute(args));
    }
}
