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
 * Scheduling overhead: the benchmark thread submits {@value #JOBS} no-op jobs tracked by one
 * completion count and waits for all of them. Score = ns per job; with {@code -prof gc},
 * {@code gc.alloc.rate.norm} / {@value #JOBS} is the allocation per job.
 *
 * <p>The job is one preallocated, non-capturing {@link Runnable} so that allocation comes from the
 * system alone (fork-join allocates a task per job, virtual threads a thread and its stack chunk).
 *
 * <p>{@code submitter}: {@code thread} submits from the JMH thread, a plain platform thread (for
 * Weft that is the external-injection path); {@code job} submits from inside one job of the same
 * system, as a frame's jobs do (Weft's worker-local path, with its per-worker free lists).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/java.lang=ALL-UNNAMED"})
public class EmptyJobs {
    public static final int JOBS = 10_000;
    private static final Runnable NO_OP = () -> { };

    @Param({"weft", "forkjoin", "vthreads"})
    public String system;

    @Param({"thread", "job"})
    public String submitter;

    /**
     * How the completion count is kept: {@code idiom}, each system's own way as above (Weft adds 1 per
     * {@code run(job, counter)}, fork-join sets a {@code CountedCompleter}'s pending count once, so the
     * two do not pay the same); {@code each}, both add 1 per job; {@code once}, both add the whole count
     * before the first job (Weft's {@code runAll}). See {@link SchedulerUnderTest#runAllCounted}.
     */
    @Param({"idiom"})
    public String counting = "idiom";

    /** Worker threads (Weft, fork-join); 2 by default. {@code -p workers=1,2,4,8} for the scaling run. */
    @Param({"2"})
    public int workers = 2;

    private SchedulerUnderTest scheduler;
    private boolean fromJob;
    private Boolean countOnce;            // null: each system's idiom

    @Setup
    public void setUp() {
        scheduler = Schedulers.create(system, workers);
        fromJob = fromJob(submitter);
        countOnce = switch (counting) {
            case "idiom" -> null;
            case "each" -> false;
            case "once" -> true;
            default -> throw new IllegalArgumentException("counting must be idiom, each or once, got " + counting);
        };
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
    @OperationsPerInvocation(JOBS)
    public void submitAndWait() {
        if (countOnce == null) {
            submitAndWait(scheduler, fromJob);
        } else {
            scheduler.runAllCounted(NO_OP, JOBS, fromJob, countOnce);
        }
    }

    /** The {@code submitter} parameter: true for {@code job}, false for {@code thread}. */
    static boolean fromJob(String submitter) {
        return switch (submitter) {
            case "thread" -> false;
            case "job" -> true;
            default -> throw new IllegalArgumentException("submitter must be thread or job, got " + submitter);
        };
    }

    /** One operation: {@value #JOBS} no-op jobs submitted with one completion count and waited for. */
    static void submitAndWait(SchedulerUnderTest scheduler, boolean fromJob) {
        if (fromJob) {
            scheduler.runAllFromJob(NO_OP, JOBS);
        } else {
            scheduler.runAll(NO_OP, JOBS);
        }
    }
}
