package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.Counter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Guarantee: a plain thread in {@code await(Duration)} on a counter at 1 is released by a concurrent
 * {@code decrement()} to 0: no lost wake-up. A waiter that missed the wake-up sleeps until its timeout
 * (2 s, six orders of magnitude longer than the race) and then returns true late: see {@link TimedWait}.
 */
@JCStressTest
@Description("Counter: decrement 1 -> 0 vs await(0, 2 s) on a platform thread")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "await returned true at once: it saw 0 first, on its re-check, or was fired")
@Outcome(id = "2", expect = FORBIDDEN, desc = "await returned only when its 2 s timeout ran out: it slept through the decrement (lost wake-up)")
@Outcome(id = "0", expect = FORBIDDEN, desc = "await returned false although the value reached 0")
@Outcome(expect = FORBIDDEN, desc = "await threw")
@State
public class CounterDecrementVsTimedAwait {
    private final Counter counter = new Counter("jcstress");

    public CounterDecrementVsTimedAwait() {
        counter.add(1);
    }

    @Actor
    public void waiter(I_Result r) {
        r.r1 = TimedWait.await(counter, 0);
    }

    @Actor
    public void decrementer() {
        counter.decrement();
    }
}
