package dev.weft.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Control;

/**
 * The machine, not a scheduler: how long one cache line takes to go from one thread to another and back
 * (two plain platform threads passing a turn through one {@link AtomicInteger}). Score = ns per round
 * trip, as the mean of the two threads' per-operation times.
 *
 * <p>Why it is in the target run: every stolen job and every fiber that resumes on another worker pays
 * line transfers, so the ratios of {@code EmptyJobs}, {@code Fib} and {@code WaitResume} move with this
 * figure. On the 2-vCPU VM where they were measured it was 54-82 ns at some times and 400-480 ns at
 * others, switching every few minutes (where the hypervisor runs the two vCPUs). A target table means
 * little without it: run it before and after each benchmark, and compare only runs in the same mode.
 *
 * <p>The two threads are JMH's group threads (one each); a thread waiting for its turn gives up when JMH
 * ends the iteration ({@link Control#stopMeasurement}), JMH's own ping-pong idiom (JMHSample_18), so the
 * last round cannot hang.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class CrossCore {
    private static final int BURSTS = 12;
    private static final int ROUND_TRIPS_PER_BURST = 300;
    private static final int PING = 0;   // whose turn it is: ping moves it PING -> PONG, pong back
    private static final int PONG = 1;

    private final AtomicInteger turn = new AtomicInteger(PING);

    /**
     * Spins until this side's turn comes and passes it to the other side, or until {@code control} (null:
     * never) says the iteration ended. The one loop behind both the JMH group and the tag.
     */
    private static void takeTurn(AtomicInteger turn, int mine, int theirs, Control control) {
        while (!turn.compareAndSet(mine, theirs)) {
            if (control != null && control.stopMeasurement) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * The same round trip measured in a few milliseconds outside JMH, for tagging another benchmark's
     * iterations: the fastest of {@value #BURSTS} bursts of {@value #ROUND_TRIPS_PER_BURST} round trips,
     * in ns (the fastest, so that a worker still spinning down from the last iteration does not hide the
     * machine's figure).
     */
    public static long roundTripNanos() {
        AtomicInteger tagTurn = new AtomicInteger(PING);
        int total = BURSTS * ROUND_TRIPS_PER_BURST;
        Thread pong = Thread.ofPlatform().daemon().name("cross-core-pong").start(() -> {
            for (int i = 0; i < total; i++) {
                takeTurn(tagTurn, PONG, PING, null);
            }
        });
        long fastest = Long.MAX_VALUE;
        for (int burst = 0; burst < BURSTS; burst++) {
            long start = System.nanoTime();
            for (int i = 0; i < ROUND_TRIPS_PER_BURST; i++) {
                takeTurn(tagTurn, PING, PONG, null);
            }
            while (tagTurn.get() != PING) {            // the last round trip ends when pong answers it
                Thread.onSpinWait();
            }
            fastest = Math.min(fastest, (System.nanoTime() - start) / ROUND_TRIPS_PER_BURST);
        }
        try {
            pong.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return fastest;
    }

    /**
     * Prints {@code [cross-core N ns]} on the iteration's line: called by the target benchmarks before
     * each iteration ({@code @Setup(Level.Iteration)}), so that every iteration of a target run carries
     * the machine's cross-core round trip at that moment and runs can be compared mode to mode.
     */
    static void printRoundTrip() {
        System.out.print("[cross-core " + roundTripNanos() + " ns] ");
        System.out.flush();
    }

    @Benchmark
    @Group("roundTrip")
    @GroupThreads(1)
    public void ping(Control control) {
        takeTurn(turn, PING, PONG, control);
    }

    @Benchmark
    @Group("roundTrip")
    @GroupThreads(1)
    public void pong(Control control) {
        takeTurn(turn, PONG, PING, control);
    }
}
