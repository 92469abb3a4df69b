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
 * Guarantee: with two nodes on the overflow list (the ring empty), the owner's pop (which takes the most
 * recent one by a CAS of the head to its link) and a thief's take of the whole list (getAndSet) take each
 * node exactly once: the owner's CAS fails if the thief emptied the list between its read of the head and
 * the CAS, and the thief never sees a node the owner took.
 */
@JCStressTest
@Description("JobDeque overflow list: owner pop (one node) vs thief take-all")
@Outcome(id = "2, 1, 0", expect = ACCEPTABLE, desc = "the owner took the most recent node, the thief the other")
@Outcome(id = "0, 3, 0", expect = ACCEPTABLE, desc = "the thief took both, the owner found the list empty")
@Outcome(expect = FORBIDDEN, desc = "a node taken twice, lost, or left behind")
@State
public class JobDequeOverflowPopVsTakeAll {
    private final JobDequeModel deque = new JobDequeModel(4);

    public JobDequeOverflowPopVsTakeAll() {
        deque.keepOverflow(1);
        deque.keepOverflow(2);
    }

    @Actor
    public void owner(III_Result r) {
        r.r1 = deque.pop();
    }

    @Actor
    public void thief(III_Result r) {
        r.r2 = deque.takeAllOverflowMask();
    }

    @Arbiter
    public void left(III_Result r) {
        r.r3 = deque.drainMask();
    }
}
