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
 * Guarantee (Counter's waiter stack): a sweep racing a push loses neither the new node nor an old live
 * one. The stack, top down: timed out, live, timed out, live. One actor sweeps, the other registers a
 * third continuation (a push, which skips the dead top); then the arbiter takes the counter to zero.
 * All three must run, once each.
 */
@JCStressTest
@Description("Counter at 1, live and timed-out waiters interleaved: sweep  vs  whenZero, then decrement")
@Outcome(id = "3", expect = ACCEPTABLE, desc = "every continuation ran once")
@Outcome(expect = FORBIDDEN, desc = "a continuation was lost by the sweep or the push, or ran twice")
@State
public class CounterSweepVsPush {
    private final Counter counter = new Counter("jcstress");
    private final AtomicInteger ran = new AtomicInteger();

    public CounterSweepVsPush() {
        counter.add(1);
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
    public void register() {
        CounterContinuations.whenZero(counter, ran::incrementAndGet);
    }

    @Arbiter
    public void arbiter(I_Result r) {
        counter.decrement();
        r.r1 = ran.get();
    }
}
