package dev.weft;

import dev.weft.internal.LincheckBudget;
import java.time.Duration;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Counter#await(long, Duration)} (zero timeout) on a counter that is re-armed
 * while waited on: threads add and decrement (each only units it added itself, so the value never goes
 * below zero) while others wait for 0 or 1. An await returns true only if the value was at or below the
 * target at some moment of the call. Model checking and a stress run side by side.
 *
 * <p>Regression test: before the add-epoch was packed with the value, a decrementer computed its new
 * value {@code v} by getAndAdd and only afterwards read the wait stack, firing every node with
 * {@code v <= target}, so a waiter that registered in between, after an {@code add} raised the value
 * again, was fired by the stale {@code v}. Model checking found it in {@code add; decrement || add;
 * await(1)}: decrement 2 -> 1, switch, add 1 -> 2, await(1) registers, switch, the decrementer fires it
 * with v = 1 while the value is 2. Counters are re-armed whenever one counter spans batches:
 * {@code run(job, counter)} from several threads while another waits for zero, or a counter reused
 * frame after frame.
 */
@Tag("lincheck")
@Param(name = "tid", gen = ThreadIdGen.class)
@Param(name = "target", gen = IntGen.class, conf = "0:1")
public class CounterRearmedAwaitLincheckTest {
    private static final int MAX_THREADS = 8;

    private final Counter counter = new Counter("lincheck");
    private final long[] outstanding = new long[MAX_THREADS];   // units added by thread i, not yet decremented; thread i only

    @Operation
    public void add(@Param(name = "tid") int tid) {
        outstanding[tid]++;
        counter.add(1);
    }

    @Operation
    public boolean decrement(@Param(name = "tid") int tid) {
        if (outstanding[tid] == 0) {
            return false;
        }
        outstanding[tid]--;
        counter.decrement();
        return true;
    }

    @Operation
    public boolean tryAwait(@Param(name = "target") int target) {
        return counter.await(target, Duration.ZERO);
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(LincheckBudget.iterations(20))
                .invocationsPerIteration(LincheckBudget.invocations(500))
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1)
                .check(getClass());
    }

    @Test
    void stress() {
        new StressOptions()
                .iterations(LincheckBudget.iterations(20))
                .invocationsPerIteration(LincheckBudget.invocations(2_000))
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1)
                .check(getClass());
    }
}
