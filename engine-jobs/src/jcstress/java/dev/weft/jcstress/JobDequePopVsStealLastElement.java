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
 * Guarantee: when the owner's {@code pop} and a thief's {@code steal} race for the only element, exactly
 * one gets it: both CAS the same stamp in the node, and a pop whose CAS fails returns null.
 */
@JCStressTest
@Description("JobDeque: owner pop vs thief steal on the only element")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "owner pop won the last element, steal saw empty or lost the CAS")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "thief steal won the last element, pop saw empty or lost the CAS")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "both took the last element: the stamp CAS does not exclude")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "neither took it although nothing else could have: element lost")
@Outcome(expect = FORBIDDEN, desc = "an element that was never pushed came out")
@State
public class JobDequePopVsStealLastElement {
    private final JobDequeModel deque = new JobDequeModel(4);

    public JobDequePopVsStealLastElement() {
        deque.push(1);
    }

    @Actor
    public void owner(II_Result r) {
        r.r1 = deque.pop();
    }

    @Actor
    public void thief(II_Result r) {
        r.r2 = deque.steal();
    }
}
