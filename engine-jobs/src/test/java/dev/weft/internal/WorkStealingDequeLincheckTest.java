package dev.weft.internal;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link WorkStealingDeque} against itself run sequentially (a plain deque: push and
 * pop at the bottom, steal at the top), by Lincheck model checking and by a stress run side by side.
 * Owner operations share one thread ({@code nonParallelGroup = "owner"}); steals run on every thread.
 * The deque starts with three elements (10, 11, 12) in its smallest ring (4 slots), so two pushes grow
 * the ring while thieves read it.
 *
 * <p>{@code steal} may return null when it lost the top CAS to another taker although elements remain:
 * that is its contract, not linearizable as a plain deque's steal. The operation here therefore retries
 * until it gets an element or the deque reads empty. A steal that failed with no competing taker would
 * spin here forever, which Lincheck reports as a hang, so the retry hides nothing. {@code stealByTopIndex}
 * is the ready-fiber grace's steal ({@code stealIfTopIs(topIndex())}), checked as a steal.
 */
@Tag("lincheck")
@Param(name = "e", gen = IntGen.class, conf = "1:9")
public class WorkStealingDequeLincheckTest {
    private final WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(2);

    public WorkStealingDequeLincheckTest() {
        deque.push(10);
        deque.push(11);
        deque.push(12);
    }

    @Operation(nonParallelGroup = "owner")
    public void push(@Param(name = "e") int e) {
        deque.push(e);
    }

    @Operation(nonParallelGroup = "owner")
    public Integer pop() {
        return deque.pop();
    }

    @Operation
    public Integer steal() {
        for (;;) {
            Integer e = deque.steal();
            if (e != null || deque.isEmpty()) {
                return e;
            }
        }
    }

    /** The ready-fiber grace's steal: read the top index, then take exactly that element. */
    @Operation
    public Integer stealByTopIndex() {
        for (;;) {
            Integer e = deque.stealIfTopIs(deque.topIndex());
            if (e != null || deque.isEmpty()) {
                return e;
            }
        }
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(LincheckBudget.iterations(20))
                .invocationsPerIteration(LincheckBudget.invocations(500))
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2)
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
                .actorsAfter(2)
                .check(getClass());
    }
}
