package dev.weft.bench;

import dev.weft.JobSystem;
import dev.weft.Jobs;
import dev.weft.Priority;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What {@link Jobs#checkpoint()} costs when nothing more urgent is queued: one BACKGROUND job runs
 * {@value #STEPS} steps of a small mix (an LCG step, a few ns), with a checkpoint after every step or
 * with none. Score = ns per step; the difference is the checkpoint's fast path (the fiber lookup and one
 * volatile load), at the worst placement (every step). Real decoders check every 0.1–1 ms.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/java.lang=ALL-UNNAMED"})
public class CheckpointCost {
    public static final int STEPS = 100_000;

    private JobSystem jobs;

    @Setup
    public void setUp() {
        jobs = JobSystem.builder().name("checkpoint-cost").workers(2).build();
    }

    @TearDown
    public void tearDown() {
        jobs.close();
    }

    @Benchmark
    @OperationsPerInvocation(STEPS)
    public long plain() {
        return jobs.submit(Priority.BACKGROUND, "plain", () -> steps(false)).join();
    }

    @Benchmark
    @OperationsPerInvocation(STEPS)
    public long checkpointEveryStep() {
        return jobs.submit(Priority.BACKGROUND, "checkpointed", () -> steps(true)).join();
    }

    private static long steps(boolean checkpoint) {
        long x = 1;
        for (int i = 0; i < STEPS; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            if (checkpoint) {
                Jobs.checkpoint();
            }
        }
        return x;
    }
}
