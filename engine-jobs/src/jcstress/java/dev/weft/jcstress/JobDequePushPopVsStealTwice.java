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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Guarantee: with element 1 queued, the owner pushing 2 then popping while one thief steals twice takes
 * every element exactly once: the first steal always gets 1 (it is there from the start and only a thief
 * takes from the top), and the owner's pop races the second steal for 2 by the stamp CAS. A pop that
 * took without its CAS (reading the stamp, then writing it) fails here.
 *
 * <p>Result: r1 = owner's pop, r2 = first steal, r3 = second steal, r4 = mask of elements left.
 */
@JCStressTest
@Description("JobDeque: owner push(2)+pop vs a thief stealing twice, element 1 queued at start")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE, desc = "steal 1 -> pop 2 (wins the stamp CAS) -> second steal sees it claimed or loses")
@Outcome(id = "0, 1, 2, 0", expect = ACCEPTABLE, desc = "steal 1 -> second steal wins the stamp CAS on 2 -> pop gets nothing")
@Outcome(id = "2, 1, 2, 0", expect = FORBIDDEN, desc = "owner and thief both took 2: the stamp CAS does not exclude")
@Outcome(id = "0, 1, 0, 0", expect = FORBIDDEN, desc = "2 lost: pop and the second steal both failed")
@Outcome(expect = FORBIDDEN, desc = "the first steal failed (1 is always there and only a thief takes it), or an element taken twice or lost")
@State
public class JobDequePushPopVsStealTwice {
    private final JobDequeModel deque = new JobDequeModel(4);

    public JobDequePushPopVsStealTwice() {
        deque.push(1);
    }

    @Actor
    public void owner(IIII_Result r) {
        deque.push(2);
        r.r1 = deque.pop();
    }

    @Actor
    public void thief(IIII_Result r) {
        r.r2 = deque.steal();
        r.r3 = deque.steal();
    }

    @Arbiter
    public void left(IIII_Result r) {
        r.r4 = deque.drainMask();
    }
}
