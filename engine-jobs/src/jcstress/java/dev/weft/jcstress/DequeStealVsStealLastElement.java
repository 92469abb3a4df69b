package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.internal.WorkStealingDeque;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Guarantee: two thieves stealing the only element: exactly one gets it (the top CAS), the other sees
 * empty or loses the CAS. With {@link DequePushPopVsStealTwice} and {@link DequePopVsStealLastElement},
 * the two-CPU form of the former three-actor test (owner push + pop vs two thieves): every CAS on
 * {@code top} is between two parties, and a failed steal returns without retrying, so each three-way
 * interleaving is one of these pairwise races.
 */
@JCStressTest
@Description("WorkStealingDeque: thief vs thief on the only element")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "thief A won the CAS; B saw empty or lost it")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "thief B won the CAS; A saw empty or lost it")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "both thieves took the element: the top CAS does not exclude")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "neither took it: a steal failed with nobody else taking")
@Outcome(expect = FORBIDDEN, desc = "an element that was never pushed came out")
@State
public class DequeStealVsStealLastElement {
    private final WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(4);

    public DequeStealVsStealLastElement() {
        deque.push(1);
    }

    @Actor
    public void thiefA(II_Result r) {
        Integer e = deque.steal();
        r.r1 = e == null ? 0 : e;
    }

    @Actor
    public void thiefB(II_Result r) {
        Integer e = deque.steal();
        r.r2 = e == null ? 0 : e;
    }
}
