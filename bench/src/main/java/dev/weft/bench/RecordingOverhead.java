package dev.weft.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The price of Weft's recording hooks (job traces, JFR events) while nothing records: {@link EmptyJobs}
 * on Weft alone, once in a JVM where the hooks are live ({@link HooksPresent}) and once where
 * {@code -Dweft.internal.observationHooks=false} turns them into constant-false branches the JIT removes
 * ({@link HooksCompiledOut}). The budget is HooksPresent / HooksCompiledOut &le; 1.02.
 *
 * <p>The two differ only in that flag, so their ratio is the hooks' cost. Run them through
 * {@link RecordingOverheadMain}, which alternates the two forks round after round: on a shared machine
 * the drift between two runs minutes apart is larger than the 2% being measured.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public abstract class RecordingOverhead {

    /** Hooks live, no trace, no JFR recording: what every user runs. */
    @Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "-Dweft.internal.observationHooks=true"})
    public static class HooksPresent extends RecordingOverhead {
    }

    /** The baseline: the same job system with the hooks folded away by the JIT. */
    @Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "-Dweft.internal.observationHooks=false"})
    public static class HooksCompiledOut extends RecordingOverhead {
    }

    /** As in {@link EmptyJobs}: from the JMH thread (injection path) or from inside a job (worker path). */
    @Param({"thread", "job"})
    public String submitter;

    /**
     * Workers: with 1 there is no stealing and no cross-core traffic, so run-to-run noise is a few
     * percent and a 2% difference can be resolved; with 2 the figure is what a game sees, but on a
     * shared 2-vCPU machine it moves by tens of percent between forks.
     */
    @Param({"1", "2"})
    public int workers;

    private SchedulerUnderTest scheduler;
    private boolean fromJob;

    @Setup
    public void setUp() {
        scheduler = Schedulers.create("weft", workers);
        fromJob = EmptyJobs.fromJob(submitter);
    }

    @TearDown
    public void tearDown() {
        scheduler.close();
    }

    @Benchmark
    @OperationsPerInvocation(EmptyJobs.JOBS)
    public void submitAndWait() {
        EmptyJobs.submitAndWait(scheduler, fromJob);
    }
}
