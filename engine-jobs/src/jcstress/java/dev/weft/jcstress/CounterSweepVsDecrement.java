package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.Counter;
import dev.weft.CounterContinuations;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Guarantee (Counter's waiter stack): unlinking dead nodes never hides a live one from a decrementer
 * walking the stack meanwhile. The stack, top down: timed out, live, timed out, live, timed out. One
 * actor sweeps the dead nodes out while the other takes the counter to zero. Both continuations must
 * run, once each.
 */
@JCStressTest
@Description("Counter at 1, live and timed-out waiters interleaved: sweep  vs  decrement")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "both continuations ran once")
@Outcome(expect = FORBIDDEN, desc = "a continuation was hidden by the sweep, or ran twice")
@State
public class CounterSweepVsDecrement {
    private final Counter counter = new Counter("jcstress");
    private final AtomicInteger ran = new AtomicInteger();

    public CounterSweepVsDecrement() {
        counter.add(1);
        CounterContinuations.pushTimedOut(counter);
        CounterContinuations.whenZero(counter, ran::incrementAndGet);
        CounterContinuations.pushTimedOut(counter);
        CounterContinuations.whenZero(counter, ran::incrementAndGet);
        CounterContinuations.pushTimedOut(counter);
    }

    @Actor
    public void sweep() {
        CounterContinuations.sweep(counter);
    }

    @Actor
    public void decrement() {
        counter.decrement();
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = ran.get();
    }
}
