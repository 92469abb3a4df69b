package dev.weft.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * {@code Thread.join}). Weft's target: handle style at most 1.5× counter style in the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/java.lang=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
public class Fib {
    public static final int N = 22;
    public static final int EXPECTED = 17_711;

    @Param({"weft", "forkjoin", "vthreads"})
    public String system;

    @Param({"counter", "handle"})
    public String style = "counter";

    private SchedulerUnderTest scheduler;

    @Setup
    public void setUp() {
        scheduler = Schedulers.create(system, 2);
        int check = fib();
        if (check != EXPECTED) {
            throw new IllegalStateException(system + ": fib(" + N + ") = " + check + ", expected " + EXPECTED);
        }
    }

    @TearDown
    public void tearDown() {
        scheduler.close();
    }

    @Benchmark
    public int fib() {
        return "handle".equals(style) ? scheduler.fibHandles(N) : scheduler.fib(N);
    }
}
