package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.Counter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * Guarantee: the untimed {@code await()} of a plain thread on a counter at 1 returns once a concurrent
 * {@code decrement()} takes it to 0: no lost wake-up, even without a timeout to fall back on.
 * Termination mode: jcstress runs the actor, fires the signal, and reports STALE if the actor does not
 * finish (it interrupts it then; {@code await} ignores interrupts, so a lost wake-up stays STALE).
 */
@JCStressTest(Mode.Termination)
@Description("Counter: decrement 1 -> 0 (signal) vs untimed await() on a platform thread")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "await returned after (or before it had to wait for) the decrement")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "await never returned although the value reached 0: lost wake-up")
@State
public class CounterDecrementVsAwaitTermination {
    private final Counter counter = new Counter("jcstress");

    public CounterDecrementVsAwaitTermination() {
        counter.add(1);
    }

    @Actor
    public void waiter() {
        counter.await();
    }

    @Signal
    public void decrementer() {
        counter.decrement();
    }
}
