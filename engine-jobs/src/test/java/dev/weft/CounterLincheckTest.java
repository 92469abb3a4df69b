package dev.weft;

import dev.weft.internal.LincheckBudget;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Counter}'s non-blocking operations (add, decrement, decrement(n), value,
 * isDone) against the counter run sequentially, by Lincheck model checking and a stress run side by
 * side: no lost update, and every read sees a value some order of the operations produces.
 *
 * <p>The operations follow the jobs' discipline: a thread decrements only units it added itself
 * (tracked per thread in {@link #outstanding}), so the value never goes below zero and decrement never
 * throws. Decrementing below zero is misuse; {@code CounterAwaitLincheckTest} is where waits are checked.
 */
@Tag("lincheck")
@Param(name = "tid", gen = ThreadIdGen.class)
@Param(name = "n", gen = IntGen.class, conf = "1:2")
public class CounterLincheckTest {
    private static final int MAX_THREADS = 8;

    private final Counter counter = new Counter("lincheck");
    private final long[] outstanding = new long[MAX_THREADS];   // units added by thread i, not yet decremented; thread i only

    @Operation
    public void add(@Param(name = "tid") int tid, @Param(name = "n") int n) {
        outstanding[tid] += n;
        counter.add(n);
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
    public long decrementAllOwn(@Param(name = "tid") int tid) {
        long n = outstanding[tid];
        outstanding[tid] = 0;
        counter.decrement(n);
        return n;
    }

    @Operation
    public long value() {
        return counter.value();
    }

    @Operation
    public boolean isDone() {
        return counter.isDone();
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
