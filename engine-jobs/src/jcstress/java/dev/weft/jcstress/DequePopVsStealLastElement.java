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
 * Guarantee: when the owner's {@code pop} and one thief's {@code steal} race for the last element,
 * exactly one of them gets it: the owner sees {@code top == bottom} and races the thief with a CAS on
 * top. (The StoreLoad fence in pop cannot matter here, since the CAS decides; it is what
 * {@link DequePushPopVsStealTwice} checks.)
 */
@JCStressTest
@Description("WorkStealingDeque: owner pop vs thief steal on the only element")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "owner pop won the last element, steal saw empty or lost the CAS")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "thief steal won the last element, pop saw empty or lost the CAS")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "both took the last element: pop took it without winning the top CAS")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "neither took it although nothing else could have: element lost")
@Outcome(expect = FORBIDDEN, desc = "an element that was never pushed came out")
@State
public class DequePopVsStealLastElement {
    private final WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(4);

    public DequePopVsStealLastElement() {
        deque.push(1);
    }

    @Actor
    public void owner(II_Result r) {
        Integer e = deque.pop();
        r.r1 = e == null ? 0 : e;
    }

    @Actor
    public void thief(II_Result r) {
        Integer e = deque.steal();
        r.r2 = e == null ? 0 : e;
    }
}
