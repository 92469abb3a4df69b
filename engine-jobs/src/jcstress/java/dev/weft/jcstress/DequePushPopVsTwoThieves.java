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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Guarantee: with element 1 already queued, the owner pushing 2 and popping, while two thieves steal
 * once each, every element is taken exactly once (by a taker or, if nobody took it, still in the deque):
 * never duplicated, never lost; thieves take FIFO from the top, the owner LIFO from the bottom.
 *
 * <p>Result: r1 = owner's pop, r2 = thief A's steal, r3 = thief B's steal, r4 = mask of elements left.
 */
@JCStressTest
@Description("WorkStealingDeque: owner push(2)+pop vs two thieves, element 1 queued at start")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE, desc = "owner pops 2; thief A steals 1; thief B finds empty or loses the CAS to A")
@Outcome(id = "2, 0, 1, 0", expect = ACCEPTABLE, desc = "owner pops 2; thief B steals 1; thief A finds empty or loses the CAS to B")
@Outcome(id = "0, 1, 2, 0", expect = ACCEPTABLE, desc = "A steals 1, then B steals 2 (or wins the last-element race): owner gets nothing")
@Outcome(id = "0, 2, 1, 0", expect = ACCEPTABLE, desc = "B steals 1, then A steals 2 (or wins the last-element race): owner gets nothing")
@Outcome(id = "2, 1, 2, 0", expect = FORBIDDEN, desc = "owner and thief B both took 2: pop's fence or last-element CAS missing")
@Outcome(id = "2, 2, 1, 0", expect = FORBIDDEN, desc = "owner and thief A both took 2: pop's fence or last-element CAS missing")
@Outcome(id = "2, 1, 1, 0", expect = FORBIDDEN, desc = "both thieves took 1: the top CAS does not exclude")
@Outcome(expect = FORBIDDEN, desc = "an element lost (neither taken nor left), taken twice, or 1 left although a thief always finds it")
@State
public class DequePushPopVsTwoThieves {
    private final WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(4);

    public DequePushPopVsTwoThieves() {
        deque.push(1);
    }

    @Actor
    public void owner(IIII_Result r) {
        deque.push(2);
        Integer e = deque.pop();
        r.r1 = e == null ? 0 : e;
    }

    @Actor
    public void thiefA(IIII_Result r) {
        Integer e = deque.steal();
        r.r2 = e == null ? 0 : e;
    }

    @Actor
    public void thiefB(IIII_Result r) {
        Integer e = deque.steal();
        r.r3 = e == null ? 0 : e;
    }

    @Arbiter
    public void left(IIII_Result r) {
        r.r4 = Drain.mask(deque);
    }
}
