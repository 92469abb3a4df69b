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
 * Guarantee: with element 1 queued, the owner pushing 2 then popping while one thief steals twice takes
 * every element exactly once: the first steal always gets 1 (it is there from the start and only a thief
 * takes from the top), and the owner's pop races the second steal for 2, the last element. If pop's
 * StoreLoad fence is missing, pop can read the old top (0), see two elements, and take 2 without a CAS
 * while the second steal still reads the old bottom (2) and takes 2 as well. With
 * {@link DequeStealVsStealLastElement}, the two-CPU form of the former three-actor test (owner
 * push + pop vs two thieves).
 *
 * <p>Result: r1 = owner's pop, r2 = first steal, r3 = second steal, r4 = mask of elements left.
 */
@JCStressTest
@Description("WorkStealingDeque: owner push(2)+pop vs a thief stealing twice, element 1 queued at start")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE, desc = "steal 1 -> pop 2 (no CAS, or wins the last-element CAS) -> second steal sees empty or loses")
@Outcome(id = "0, 1, 2, 0", expect = ACCEPTABLE, desc = "steal 1 -> second steal wins the last-element CAS on 2 -> pop gets nothing")
@Outcome(id = "2, 1, 2, 0", expect = FORBIDDEN, desc = "owner and thief both took 2: pop's fence or last-element CAS missing")
@Outcome(id = "0, 1, 0, 0", expect = FORBIDDEN, desc = "2 lost: pop and the second steal both failed")
@Outcome(expect = FORBIDDEN, desc = "the first steal failed (1 is always there and only a thief takes it), or an element taken twice or lost")
@State
public class DequePushPopVsStealTwice {
    private final WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(4);

    public DequePushPopVsStealTwice() {
        deque.push(1);
    }

    @Actor
    public void owner(IIII_Result r) {
        deque.push(2);
        Integer e = deque.pop();
        r.r1 = e == null ? 0 : e;
    }

    @Actor
    public void thief(IIII_Result r) {
        Integer a = deque.steal();
        Integer b = deque.steal();
        r.r2 = a == null ? 0 : a;
        r.r3 = b == null ? 0 : b;
    }

    @Arbiter
    public void left(IIII_Result r) {
        r.r4 = Drain.mask(deque);
    }
}
