package dev.weft;

import dev.weft.internal.LincheckBudget;
import java.time.Duration;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Counter#await(long, Duration)} with a zero timeout (register a wait node,
 * re-check, fire or abandon) against concurrent decrements, by model checking and a stress run side by
 * side: it returns true exactly if the value was at or below the target at some moment of the call. The
 * counter starts at {@link #START} and is only decremented (the batch pattern: add every job, then wait
 * while they end), with at most {@code START} decrements per scenario, so it never goes below zero.
 * {@link CounterRearmedAwaitLincheckTest} covers counters that go up again while waited on.
 */
@Tag("lincheck")
@Param(name = "target", gen = IntGen.class, conf = "0:5")
public class CounterAwaitLincheckTest {
    private static final int THREADS = 3;
    private static final int ACTORS_PER_THREAD = 2;
    private static final int START = THREADS * ACTORS_PER_THREAD;   // every actor could be a decrement

    private final Counter counter = new Counter("lincheck");

    public CounterAwaitLincheckTest() {
        counter.add(START);
    }

    @Operation
    public void decrement() {
        counter.decrement();
    }

    @Operation
    public boolean tryAwait(@Param(name = "target") int target) {
        return counter.await(target, Duration.ZERO);
    }

    @Operation
    public long value() {
        return counter.value();
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(LincheckBudget.iterations(20))
                .invocationsPerIteration(LincheckBudget.invocations(500))
                .threads(THREADS)
                .actorsPerThread(ACTORS_PER_THREAD)
                .actorsBefore(0)
                .actorsAfter(0)
                .check(getClass());
    }

    @Test
    void stress() {
        new StressOptions()
                .iterations(LincheckBudget.iterations(20))
                .invocationsPerIteration(LincheckBudget.invocations(2_000))
                .threads(THREADS)
                .actorsPerThread(ACTORS_PER_THREAD)
                .actorsBefore(0)
                .actorsAfter(0)
                .check(getClass());
    }
}
