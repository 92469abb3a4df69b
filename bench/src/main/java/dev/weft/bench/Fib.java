package dev.weft.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Nested fork/wait: fib({@value #N}) where every node with n >= 2 runs its two children as jobs and
 * waits for them ({@value #N} gives 57,313 nodes, 28,656 of which wait). Score = µs per fib({@value #N}).
 *
 * <p>{@code style=counter}: Weft runs two {@code jobs.run(child, counter)} then {@code counter.await()};
 * fork-join a {@code RecursiveTask} with {@code invokeAll(a, b)} (forks one, runs the other inline);
 * virtual threads one per child, {@code Thread.join()}.
 *
 * <p>{@code style=handle}, fork/join as a game programmer writes it with result handles: submit the
 * first child, compute the second on the spot, join the first ({@code jobs.submit} and
 * {@code JobHandle.join} on Weft, {@code fork}/{@code join} on fork-join, a virtual thread and
 * {@code Thread.join}). Weft's target: handle style at most 1.5× fork-join's in the same run.
 *
 * <p>{@code style=fork}: the explicit fork/join call, one child run on the spot and the other as a job
 * ({@code jobs.runAndWait(a, b)} on Weft; fork-join's {@code invokeAll}, the same code as its counter
 * style; virtual threads as in counter style, having no such call).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/java.lang=ALL-UNNAMED"})
public class Fib {
    public static final int N = 22;
    public static final int EXPECTED = 17_711;

    @Param({"weft", "forkjoin", "vthreads"})
    public String system;

    @Param({"counter", "handle", "fork"})
    public String style = "counter";

    /** Worker threads (Weft, fork-join); 2 by default. {@code -p workers=1,2,4,8} for the scaling run. */
    @Param({"2"})
    public int workers = 2;

    private SchedulerUnderTest scheduler;

    @Setup
    public void setUp() {
        scheduler = Schedulers.create(system, workers);
        int check = fib();
        if (check != EXPECTED) {
            throw new IllegalStateException(system + ": fib(" + N + ") = " + check + ", expected " + EXPECTED);
        }
    }

    /** The machine's cross-core round trip before each iteration, on its output line ({@link CrossCore}). */
    @Setup(Level.Iteration)
    public void tagIteration() {
        CrossCore.printRoundTrip();
    }

    @TearDown
    public void tearDown() {
        scheduler.close();
    }

    @Benchmark
    public int fib() {
        return switch (style) {
            case "handle" -> scheduler.fibHandles(N);
            case "fork" -> scheduler.fibFork(N);
            default -> scheduler.fib(N);
        };
    }
}
