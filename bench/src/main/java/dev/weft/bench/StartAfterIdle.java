package dev.weft.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * How long a job submitted from outside (the game's main thread) takes to start once the workers have
 * gone idle and parked: the first job of a frame, or of a level load between frames. Each operation
 * waits {@link #gapMicros} first (not measured), so that every worker is asleep, then submits one job
 * and stops the clock when the job's first instruction has run.
 *
 * <ul>
 *   <li>{@code busy}: the submitter keeps its core busy meanwhile (it polls the job's start flag), as a
 *       main thread does that goes on with its own work (render submission, input) after it submitted.
 *       A woken worker that the kernel queues on that busy core waits for a scheduler tick: 4 ms at
 *       {@code HZ=250}.</li>
 *   <li>{@code blocked}: the submitter blocks in the system's own wait, freeing its core; the figure is
 *       the round trip (start and completion).</li>
 * </ul>
 * Score: microseconds per operation, sampled; read the percentiles (p50, p90, p99), not the mean. Weft's
 * idle strategy can be swapped per run with {@code -jvmArgsAppend -Dweft.bench.idle=spins,yields}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/java.lang=ALL-UNNAMED"})
public class StartAfterIdle {
    @Param({"weft", "forkjoin", "vthreads"})
    public String system;

    @Param({"busy", "blocked"})
    public String submitter;

    /** Idle time before each submission, long enough for every worker to park. */
    @Param({"2000"})
    public int gapMicros;

    private SchedulerUnderTest scheduler;
    private boolean busy;
    private volatile boolean started;          // written by the job, polled by a busy submitter
    private final Runnable markStarted = () -> started = true;

    @Setup
    public void setUp() {
        scheduler = Schedulers.create(system, 2);
        busy = switch (submitter) {
            case "busy" -> true;
            case "blocked" -> false;
            default -> throw new IllegalArgumentException("submitter: " + submitter + ", expected busy or blocked");
        };
    }

    /** Not measured: lets every worker go idle and park (sleeps through the gap, as a frame's idle tail). */
    @Setup(Level.Invocation)
    public void idleGap() {
        started = false;
        long end = System.nanoTime() + gapMicros * 1_000L;
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    @TearDown
    public void tearDown() {
        scheduler.close();
    }

    @Benchmark
    public void submitThenWaitForStart() {
        SchedulerUnderTest.Pending job = scheduler.submitOne(markStarted);
        if (busy) {
            while (!started) {
                Thread.onSpinWait();
            }
        }
        job.await();   // busy: the job has started, so this is the tail of a no-op (not more than microseconds)
    }
}
