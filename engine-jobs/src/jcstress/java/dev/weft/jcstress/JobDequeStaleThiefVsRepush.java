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
 * Guarantee: a recycled node taken once per push although the owner pushes the very node it popped
 * again at the same index while a thief steals (the ABA that a claim by the stamp's index alone allows,
 * and that takes the element at the top now, which is correct). The owner pops node 1 and, if it got
 * it, pushes it again; the thief steals once. Node 1 must end up exactly once across the thief's hand
 * and what is left, counting the owner's pop as a take only when it did not push the node back.
 *
 * <p>Result: r1 = owner's pop, r2 = the steal, r3 = mask left.
 */
@JCStressTest
@Description("JobDeque: owner pops node 1 and pushes it again at the same index vs a thief stealing")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "popped and pushed back; the steal saw it claimed, lost, or came before the push")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "popped and pushed back, then the thief stole it (also a stale thief's claim)")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "the thief stole it first; pop found it claimed and pushed nothing")
@Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "the thief has it and it is still queued: taken twice")
@Outcome(expect = FORBIDDEN, desc = "lost or duplicated")
@State
public class JobDequeStaleThiefVsRepush {
    private final JobDequeModel deque = new JobDequeModel(4);

    public JobDequeStaleThiefVsRepush() {
        deque.push(1);
    }

    @Actor
    public void owner(III_Result r) {
        int v = deque.pop();
        if (v != 0) {
            deque.pushNodeOf(deque, v);
        }
        r.r1 = v;
    }

    @Actor
    public void thief(III_Result r) {
        r.r2 = deque.steal();
    }

    @Arbiter
    public void left(III_Result r) {
        r.r3 = deque.drainMask();
    }
}
