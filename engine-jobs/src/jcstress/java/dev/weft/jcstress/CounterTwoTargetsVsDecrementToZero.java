package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.Counter;
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
 * <p>Result: r1 = await(1, 2 s), r2 = await(0, 2 s), each as {@link TimedWait} classifies it: 1 =
 * released in time, 2 = released only when its timeout ran out (lost wake-up), 0 = timed out, -1 = threw.
 */
@JCStressTest
@Description("Counter at 2: await(1) and await(0) waiters vs decrement, decrement")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both waiters released: each saw its target reached or was fired")
@Outcome(id = "2, 1", expect = FORBIDDEN, desc = "the target-1 waiter slept through 2 -> 1 (and 1 -> 0) until its timeout")
@Outcome(id = "1, 2", expect = FORBIDDEN, desc = "the target-0 waiter slept through 1 -> 0 until its timeout")
@Outcome(id = "2, 2", expect = FORBIDDEN, desc = "both waiters slept through their decrements")
@Outcome(expect = FORBIDDEN, desc = "a waiter timed out or threw")
@State
public class CounterTwoTargetsVsDecrementToZero {
    private final Counter counter = new Counter("jcstress");

    public CounterTwoTargetsVsDecrementToZero() {
        counter.add(2);
    }

    @Actor
    public void waiterAtOne(II_Result r) {
        r.r1 = TimedWait.await(counter, 1);
    }

    @Actor
    public void waiterAtZero(II_Result r) {
        r.r2 = TimedWait.await(counter, 0);
    }

    @Actor
    public void decrementer() {
        counter.decrement();
        counter.decrement();
    }
}
