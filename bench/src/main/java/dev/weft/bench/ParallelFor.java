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
 * Data parallelism: sum of {@code sqrt(i)} over {@value #N} indices in ranges of {@value #GRAIN};
 * score = µs per loop. {@code workers} = 1 and 2 give the speedup (the target for Weft is
 * score(1) / score(2) >= 1.9 on two cores, issue 13; {@code summary.md} lists it per system).
 *
 * <p>{@code workers} applies to Weft and fork-join. The JDK's default virtual-thread scheduler has
 * one carrier per available processor whatever this says, so its two rows measure the same thing.
 *
 * <p>Each range writes its sum into the slot {@code partial[start / GRAIN]}; the benchmark thread adds
 * the slots up afterwards. {@value #N} and {@value #GRAIN} being powers of two, every system's ranges
 * are exactly the aligned blocks of {@value #GRAIN} (see {@link RangeBody}), so slots are distinct;
 * {@code SchedulersTest} checks the sum.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/java.lang=ALL-UNNAMED"})
public class ParallelFor {
    public static final int N = 1 << 20;
    public static final int GRAIN = 1024;

    @Param({"weft", "forkjoin", "vthreads"})
    public String system;

    @Param({"1", "2"})
    public int workers;

    private SchedulerUnderTest scheduler;
    private final double[] partial = new double[N / GRAIN];
    private final RangeBody body = this::sumSqrt;

    @Setup
    public void setUp() {
        scheduler = Schedulers.create(system, workers);
    }

    @TearDown
    public void tearDown() {
        scheduler.close();
    }

    private void sumSqrt(int start, int end) {
        double sum = 0;
        for (int i = start; i < end; i++) {
            sum += Math.sqrt(i);
        }
        partial[start / GRAIN] = sum;
    }

    @Benchmark
    public double sumOfSqrt() {
        java.util.Arrays.fill(partial, 0);
        scheduler.parallelFor(0, N, GRAIN, body);
        double total = 0;
        for (double p : partial) {
            total += p;
        }
        return total;
    }
}
