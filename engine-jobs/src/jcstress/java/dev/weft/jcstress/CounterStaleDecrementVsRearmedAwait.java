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
 * Guarantee: a decrement never fires, with the value it computed, a waiter that registered after an
 * {@code add} raised the value again (a re-armed counter). Counter at 1: the decrementer takes it to 0;
 * the other actor re-arms it ({@code add(1)}, value 1 from then on) and only then awaits 0 with a zero
 * timeout. No order of the three operations lets that await see 0.
 *
 * <p>Regression test: before the add-epoch was packed with the value, the decrementer read the wait
 * stack after its getAndAdd and fired the re-armed waiter with its stale 0 (seen in 8 of 14 quick-mode
 * configurations, a few samples in a million each).
 */
@JCStressTest
@Description("Counter at 1: decrement vs add(1) then await(0, 0 s): the re-armed waiter must not be fired")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "await saw the re-armed value 1 and gave up (or was filtered)")
@Outcome(id = "1", expect = FORBIDDEN, desc = "the decrement's stale value 0 fired a waiter registered after the add: released at 1")
@Outcome(expect = FORBIDDEN, desc = "await threw")
@State
public class CounterStaleDecrementVsRearmedAwait {
    private final Counter counter = new Counter("jcstress");

    public CounterStaleDecrementVsRearmedAwait() {
        counter.add(1);
    }

    @Actor
    public void decrementer() {
        counter.decrement();
    }

    @Actor
    public void rearmThenAwait(I_Result r) {
        try {
            counter.add(1);
            r.r1 = counter.await(0, Duration.ZERO) ? 1 : 0;
        } catch (RuntimeException e) {
            r.r1 = -1;
        }
    }
}
