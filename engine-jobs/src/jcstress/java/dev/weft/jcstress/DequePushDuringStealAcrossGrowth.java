package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.internal.WorkStealingDeque;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Guarantee: pushes that grow the ring (capacity 2, four pushes: it grows to 4 on the third) while a
 * thief steals lose nothing and duplicate nothing, and a thief still reading the old ring takes a valid
 * element, in FIFO order.
 *
 * <p>Result: r1 = first steal, r2 = second steal, r3 = mask of elements left (15 = 1, 2, 3 and 4).
 */
@JCStressTest
@Description("WorkStealingDeque: owner pushes 1..4 into capacity 2 (growth) while a thief steals twice")
@Outcome(id = "0, 0, 15", expect = ACCEPTABLE, desc = "both steals ran before the first push was published")
@Outcome(id = "0, 1, 14", expect = ACCEPTABLE, desc = "first steal found it empty, second stole 1")
@Outcome(id = "1, 0, 14", expect = ACCEPTABLE, desc = "stole 1, then the deque looked empty (2 not yet published)")
@Outcome(id = "1, 2, 12", expect = ACCEPTABLE, desc = "stole 1 and 2, from the old ring or the grown one")
@Outcome(expect = FORBIDDEN, desc = "an element lost in the growth, duplicated, out of FIFO order, or a stale slot read")
@State
public class DequePushDuringStealAcrossGrowth {
    private final WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(2);

    @Actor
    public void owner() {
        deque.push(1);
        deque.push(2);
        deque.push(3);                        // grows 2 -> 4 unless the thief already took 1
        deque.push(4);
    }

    @Actor
    public void thief(III_Result r) {
        Integer a = deque.steal();
        Integer b = deque.steal();
        r.r1 = a == null ? 0 : a;
        r.r2 = b == null ? 0 : b;
    }

    @Arbiter
    public void left(III_Result r) {
        r.r3 = Drain.mask(deque);
    }
}
