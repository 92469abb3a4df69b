package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.JobDequeModel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Guarantee: pushes that grow the ring while a thief steals lose nothing and duplicate nothing, and a
 * thief still reading the old ring takes a valid element, in FIFO order: the claim is in the node, so
 * the old ring and the new one name the same claim. {@code new JobDequeModel(2)} gets the smallest
 * ring, 4 slots; seven pushes grow it to 8 at the fifth push, or later if the thief took some first.
 *
 * <p>Result: r1 = first steal, r2 = second steal, r3 = mask of elements left (127 = all of 1 to 7).
 */
@JCStressTest
@Description("JobDeque: owner pushes 1..7 into a 4-slot ring (growth) while a thief steals twice")
@Outcome(id = "0, 0, 127", expect = ACCEPTABLE, desc = "both steals ran before the first push was published")
@Outcome(id = "0, 1, 126", expect = ACCEPTABLE, desc = "first steal found it empty, second stole 1")
@Outcome(id = "1, 0, 126", expect = ACCEPTABLE, desc = "stole 1, then the deque looked empty (2 not yet published)")
@Outcome(id = "1, 2, 124", expect = ACCEPTABLE, desc = "stole 1 and 2, from the old ring or the grown one")
@Outcome(expect = FORBIDDEN, desc = "an element lost in the growth, duplicated, out of FIFO order, or a stale slot read")
@State
public class JobDequePushDuringStealAcrossGrowth {
    private final JobDequeModel deque = new JobDequeModel(2);

    @Actor
    public void owner() {
        for (int e = 1; e <= 7; e++) {
            deque.push(e);                    // the ring (4 slots) grows to 8 at the 5th, 6th or 7th push
        }
    }

    @Actor
    public void thief(III_Result r) {
        r.r1 = deque.steal();
        r.r2 = deque.steal();
    }

    @Arbiter
    public void left(III_Result r) {
        r.r3 = deque.drainMask();
    }
}
