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
 * Round-trip latency seen by a plain thread (the game's main thread) that submits one no-op job and
 * waits for it, to choose how the main thread should wait:
 * <ul>
 *   <li>{@code park}: block straight away in the system's own wait (Weft {@code JobHandle.join()},
 *       {@code ForkJoinTask.join()}, {@code Thread.join()});</li>
 *   <li>{@code spin}: poll {@code isDone()} with {@link Thread#onSpinWait()} up to
 *       {@value #SPIN_LIMIT} times, then fall back to the blocking wait.</li>
 * </ul>
 * The workers are idle between operations, so the figure includes waking one of them. Score = ns per
 * submit-and-wait.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/java.lang=ALL-UNNAMED"})
public class MainThreadWait {
    public static final int SPIN_LIMIT = 20_000;
    private static final Runnable NO_OP = () -> { };

    @Param({"weft", "forkjoin", "vthreads"})
    public String system;

    @Param({"park", "spin"})
    public String wait;

    private SchedulerUnderTest scheduler;
    private boolean spin;

    @Setup
    public void setUp() {
        scheduler = Schedulers.create(system, 2);
        spin = switch (wait) {
            case "park" -> false;
            case "spin" -> true;
            default -> throw new IllegalArgumentException("wait: " + wait);
        };
    }

    @TearDown
    public void tearDown() {
        scheduler.close();
    }

    @Benchmark
    public void submitAndWait() {
        SchedulerUnderTest.Pending job = scheduler.submitOne(NO_OP);
        if (spin) {
            for (int i = 0; i < SPIN_LIMIT && !job.isDone(); i++) {
                Thread.onSpinWait();
            }
        }
        job.await();
    }
}
