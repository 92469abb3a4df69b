package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.JobDequeModel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Guarantee: two thieves and the only element: exactly one gets it (the stamp CAS); the other saw it
 * claimed or lost the CAS. A thief fails only if the stamp was no longer the element's, and only a CAS
 * that took it changes the stamp.
 */
@JCStressTest
@Description("JobDeque: thief vs thief on the only element")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "thief A won the CAS; B saw empty or lost it")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "thief B won the CAS; A saw empty or lost it")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "both thieves took the element: the stamp CAS does not exclude")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "neither took it: a steal failed with nobody else taking")
@Outcome(expect = FORBIDDEN, desc = "an element that was never pushed came out")
@State
public class JobDequeStealVsStealLastElement {
    private final JobDequeModel deque = new JobDequeModel(4);

    public JobDequeStealVsStealLastElement() {
        deque.push(1);
    }

    @Actor
    public void thiefA(II_Result r) {
        r.r1 = deque.steal();
    }

    @Actor
    public void thiefB(II_Result r) {
        r.r2 = deque.steal();
    }
}
