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
 * Guarantee: a node that moves to another deque, at the same index there, cannot be stolen from the
 * deque it left: the stamp carries the deque's id. The owner pops node 1 from deque A and pushes it onto
 * deque B (index 0 in both); a thief steals from A. Node 1 ends up exactly once: in the thief's hand or
 * in B. Without the id in the stamp, a thief that read A's slot before the move claims it from B.
 *
 * <p>Result: r1 = owner's pop from A, r2 = the steal from A, r3 = mask left in A and B (B's bits
 * shifted by 8).
 */
@JCStressTest
@Description("JobDeque: owner moves node 1 from deque A to deque B vs a thief stealing from A")
@Outcome(id = "1, 0, 256", expect = ACCEPTABLE, desc = "moved to B; the steal from A saw it claimed, lost, or saw nothing")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "stolen from A first; the pop found it claimed and moved nothing")
@Outcome(id = "1, 1, 256", expect = FORBIDDEN, desc = "the thief took it from A while it sits in B: taken twice")
@Outcome(expect = FORBIDDEN, desc = "lost or duplicated")
@State
public class JobDequeStaleThiefVsMoveToOtherDeque {
    private final JobDequeModel a = new JobDequeModel(4);
    private final JobDequeModel b = new JobDequeModel(4);

    public JobDequeStaleThiefVsMoveToOtherDeque() {
        a.push(1);
    }

    @Actor
    public void owner(III_Result r) {
        int v = a.pop();
        if (v != 0) {
            b.pushNodeOf(a, v);
        }
        r.r1 = v;
    }

    @Actor
    public void thief(III_Result r) {
        r.r2 = a.steal();
    }

    @Arbiter
    public void left(III_Result r) {
        r.r3 = a.drainMask() | b.drainMask() << 8;
    }
}
