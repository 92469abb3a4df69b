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
 * Guarantee (Prerequisites): a continuation registered on a counter while its last decrement races runs
 * exactly once: never lost (the decrementer walked the stack before the push, and the registrar's
 * re-read missed the zero), never twice (both the decrementer and the registrar's re-read fire it; the
 * node's CAS lets only one run it). Counter at 1: one actor decrements, the other registers.
 */
@JCStressTest
@Description("Counter at 1: decrement  vs  whenZero(count++)")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the continuation ran once")
@Outcome(id = "0", expect = FORBIDDEN, desc = "lost: the counter reached zero and the continuation never ran")
@Outcome(expect = FORBIDDEN, desc = "ran more than once")
@State
public class CounterDecrementVsWhenZero {
    private final Counter counter = new Counter("jcstress");
    private final AtomicInteger ran = new AtomicInteger();

    public CounterDecrementVsWhenZero() {
        counter.add(1);
    }

    @Actor
    public void decrement() {
        counter.decrement();
    }

    @Actor
    public void register() {
        CounterContinuations.whenZero(counter, ran::incrementAndGet);
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = ran.get();
    }
}
