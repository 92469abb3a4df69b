package dev.weft;

import dev.weft.internal.LincheckBudget;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link JobDeque} against itself run sequentially (a plain deque: push and pop at
 * the bottom, steal at the top), by Lincheck model checking and by a stress run side by side. Owner
 * operations share one thread ({@code nonParallelGroup = "owner"}); steals run on every thread. The
 * deque starts with three elements (10, 11, 12) in its smallest ring (4 slots), so two pushes grow the
 * ring while thieves read it. {@code pushPopped} pushes the node the owner popped last again, as Weft
 * recycles nodes, often at the index it just left. {@code popIfLastPushed} is a join's pop: it takes the
 * node the owner pushed last, only if it is still at the bottom.
 *
 * <p>{@code steal} may return null when it lost the stamp CAS, or saw the top element claimed before its
 * claimant moved {@code top} on, although elements remain: that is its contract, not linearizable as a
 * plain deque's steal. The operation here therefore retries until it gets an element or the deque reads
 * empty. A steal that failed with no competing taker would spin here forever, which Lincheck reports as
 * a hang, so the retry hides nothing.
 */
@Tag("lincheck")
@Param(name = "e", gen = IntGen.class, conf = "1:9")
public class JobDequeLincheckTest {
    private final JobDeque deque = new JobDeque(2, null);
    private TestNode popped;                         // the owner's last pop, pushed again by pushPopped
    private TestNode lastPushed;                     // the owner's last push, for popIfLastPushed

    public JobDequeLincheckTest() {
        deque.push(new TestNode(10));
        deque.push(new TestNode(11));
        deque.push(new TestNode(12));
    }

    @Operation(nonParallelGroup = "owner")
    public void push(@Param(name = "e") int e) {
        lastPushed = new TestNode(e);
        deque.push(lastPushed);
    }

    /** The node popped last, with a new value (e + 20), pushed again; nothing if there is none. */
    @Operation(nonParallelGroup = "owner")
    public void pushPopped(@Param(name = "e") int e) {
        TestNode n = popped;
        if (n != null) {
            popped = null;
            n.value = e + 20;
            deque.push(n);
            lastPushed = n;
        }
    }

    @Operation(nonParallelGroup = "owner")
    public Integer pop() {
        TestNode n = (TestNode) deque.pop();
        if (n == null) {
            return null;
        }
        popped = n;
        return n.value;
    }

    /** The owner's join of the node it pushed last: popped only if it is still at the bottom. */
    @Operation(nonParallelGroup = "owner")
    public Integer popIfLastPushed() {
        TestNode n = lastPushed;
        if (n == null || deque.popIf(n) == null) {
            return null;
        }
        lastPushed = null;
        popped = n;
        return n.value;
    }

    @Operation
    public Integer steal() {
        for (;;) {
            TestNode n = (TestNode) deque.steal();
            if (n != null) {
                return n.value;
            }
            if (deque.isEmpty()) {
                return null;
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
