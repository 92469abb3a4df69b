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
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Guarantee: the owner putting a node on the overflow list (a CAS of the head, retried on a head a taker
 * emptied) and a thief taking the whole list (getAndSet) lose nothing: the new node is either in the
 * thief's chain or left for the owner. A push by an opaque read and store (the list's owner-only form,
 * before thieves could take it) would lose the node it linked to a head a take has just removed.
 */
@JCStressTest
@Description("JobDeque overflow list: owner keep vs thief take-all")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the thief took the old node before the push, the owner pops the new one")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the thief took both, after the push")
@Outcome(expect = FORBIDDEN, desc = "a node lost or taken twice")
@State
public class JobDequeOverflowKeepVsTakeAll {
    private final JobDequeModel deque = new JobDequeModel(4);

    public JobDequeOverflowKeepVsTakeAll() {
        deque.keepOverflow(1);
    }

    @Actor
    public void owner() {
        deque.keepOverflow(2);
    }

    @Actor
    public void thief(II_Result r) {
        r.r1 = deque.takeAllOverflowMask();
    }

    @Arbiter
    public void left(II_Result r) {
        r.r2 = deque.drainMask();
    }
}
