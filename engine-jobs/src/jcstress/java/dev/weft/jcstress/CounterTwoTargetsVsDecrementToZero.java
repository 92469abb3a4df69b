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
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Guarantee: two waiters at different targets (1 and 0) on a counter at 2 are each released when the
 * value reaches their own target, while a decrementer takes it 2 -> 1 -> 0: the wake-up walk fires every
 * reached node, and the max-target filter in {@code decrement} never skips a registered waiter.
 *
 * <p>Result: r1 = await(1, 10 s) returned true, r2 = await(0, 10 s) returned true (1 = yes, 0 = timed out,
 * -1 = threw).
 */
@JCStressTest
@Description("Counter at 2: await(1) and await(0) waiters vs decrement, decrement")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both waiters released: each saw its target reached or was fired")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "the target-1 waiter missed the 2 -> 1 decrement (and the later 1 -> 0)")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "the target-0 waiter missed the 1 -> 0 decrement")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "both waiters missed their decrements")
@Outcome(expect = FORBIDDEN, desc = "a waiter threw")
@State
public class CounterTwoTargetsVsDecrementToZero {
    private static final Duration GENEROUS = Duration.ofSeconds(10);

    private final Counter counter = new Counter("jcstress");

    public CounterTwoTargetsVsDecrementToZero() {
        counter.add(2);
    }

    @Actor
    public void waiterAtOne(II_Result r) {
        r.r1 = await(1);
    }

    @Actor
    public void waiterAtZero(II_Result r) {
        r.r2 = await(0);
    }

    @Actor
    public void decrementer() {
        counter.decrement();
        counter.decrement();
    }

    private int await(long target) {
        try {
            return counter.await(target, GENEROUS) ? 1 : 0;
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
