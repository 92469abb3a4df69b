package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.Counter;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Guarantee: a plain thread in {@code await(Duration)} on a counter at 1 is released by a concurrent
 * {@code decrement()} to 0: no lost wake-up. The timeout (10 s) is three orders of magnitude longer than
 * the race window, so a {@code false} means the waiter registered, missed the decrement and slept.
 */
@JCStressTest
@Description("Counter: decrement 1 -> 0 vs await(10 s) on a platform thread")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "await returned true: it saw 0 at once, on its re-check, or was fired")
@Outcome(id = "0", expect = FORBIDDEN, desc = "await timed out although the value reached 0: lost wake-up")
@Outcome(expect = FORBIDDEN, desc = "await threw")
@State
public class CounterDecrementVsTimedAwait {
    private static final Duration GENEROUS = Duration.ofSeconds(10);

    private final Counter counter = new Counter("jcstress");

    public CounterDecrementVsTimedAwait() {
        counter.add(1);
    }

    @Actor
    public void waiter(I_Result r) {
        try {
            r.r1 = counter.await(GENEROUS) ? 1 : 0;
        } catch (RuntimeException e) {
            r.r1 = -1;
        }
    }

    @Actor
    public void decrementer() {
        counter.decrement();
    }
}
