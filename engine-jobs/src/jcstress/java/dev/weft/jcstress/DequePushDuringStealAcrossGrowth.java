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
 * Guarantee: pushes that grow the ring while a thief steals lose nothing and duplicate nothing, and a
 * thief still reading the old ring takes a valid element, in FIFO order. {@code new
 * WorkStealingDeque<>(2)} gets the smallest ring, 4 slots; seven pushes grow it to 8 at the fifth push,
 * or at the sixth or seventh if the thief took one or two first (it never takes more than two).
 *
 * <p>Result: r1 = first steal, r2 = second steal, r3 = mask of elements left (127 = all of 1 to 7).
 */
@JCStressTest
@Description("WorkStealingDeque: owner pushes 1..7 into a 4-slot ring (growth) while a thief steals twice")
@Outcome(id = "0, 0, 127", expect = ACCEPTABLE, desc = "both steals ran before the first push was published")
@Outcome(id = "0, 1, 126", expect = ACCEPTABLE, desc = "first steal found it empty, second stole 1")
@Outcome(id = "1, 0, 126", expect = ACCEPTABLE, desc = "stole 1, then the deque looked empty (2 not yet published)")
@Outcome(id = "1, 2, 124", expect = ACCEPTABLE, desc = "stole 1 and 2, from the old ring or the grown one")
@Outcome(expect = FORBIDDEN, desc = "an element lost in the growth, duplicated, out of FIFO order, or a stale slot read")
@State
public class DequePushDuringStealAcrossGrowth {
    private final WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(2);

    @Actor
    public void owner() {
        for (int e = 1; e <= 7; e++) {
            deque.push(e);                    // the ring (4 slots) grows to 8 at the 5th, 6th or 7th push
        }
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
