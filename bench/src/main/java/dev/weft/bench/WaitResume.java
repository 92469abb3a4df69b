package dev.weft.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Wait/resume cost: two jobs hand a token back and forth {@value #ROUNDS} times; score = ns per
 * round trip (two waits, two wake-ups).
 *
 * <p>Weft: see {@code WeftScheduler#pingPong} (fibers parked on counters). Virtual threads:
 * {@code LockSupport.park/unpark} with a volatile turn flag (parking unmounts the virtual thread).
 * Fork-join: the same park/unpark on two pool workers, which blocks each worker while it waits:
 * fork-join tasks cannot be suspended, so this is what a blocking handoff costs there.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/java.lang=ALL-UNNAMED"})
public class WaitResume {
    public static final int ROUNDS = 1_000;

    @Param({"weft", "forkjoin", "vthreads"})
    public String system;

    private SchedulerUnderTest scheduler;

    @Setup
    public void setUp() {
        scheduler = Schedulers.create(system, 2);
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
    @OperationsPerInvocation(ROUNDS)
    public void roundTrip() {
        scheduler.pingPong(ROUNDS);
    }
}
