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
 * Guarantee: waiters at different targets are each woken by the decrement that reaches their target,
 * also while the other's node (waiting or already fired) sits in the same wait stack. Counter at 2:
 * actor A waits for 1 and then decrements to 0; actor B decrements to 1 and then waits for 0. The
 * decrement to 0 must fire B's node past A's (a target above the new value), and B's await(0) must not
 * be filtered out by {@code maxWaitTarget} (raised to 1 by A). Two actors, so it runs on the 2-CPU
 * CI machine (jcstress 0.15 skips tests with more actors than {@code -c} CPUs, and refuses {@code -c}
 * above the machine's count). Its former three-actor form (waiters for 1 and for 0 both parked while a
 * third thread decrements twice) is a scenario of {@code CounterBlockingAwaitLincheckTest}.
 *
 * <p>Result: r1 = A's await(1, 2 s), r2 = B's await(0, 2 s), each as {@link TimedWait} classifies it:
 * 1 = released in time, 2 = released only when its timeout ran out (lost wake-up), 0 = timed out,
 * -1 = threw.
 */
@JCStressTest
@Description("Counter at 2: A = await(1); decrement  vs  B = decrement; await(0)")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "B's decrement released A (directly or by firing A's node), A's released B")
@Outcome(id = "2, 1", expect = FORBIDDEN, desc = "A slept through 2 -> 1 until its timeout (lost wake-up)")
@Outcome(id = "1, 2", expect = FORBIDDEN, desc = "B slept through 1 -> 0 until its timeout: the walk skipped B's node or the max-target filter hid it")
@Outcome(id = "2, 2", expect = FORBIDDEN, desc = "both slept through their decrements")
@Outcome(expect = FORBIDDEN, desc = "a wait timed out (a late A delays B past its own timeout) or threw")
@State
public class CounterTwoTargetsPingPong {
    private final Counter counter = new Counter("jcstress");

    public CounterTwoTargetsPingPong() {
        counter.add(2);
    }

    @Actor
    public void waitForOneThenDecrement(II_Result r) {
        r.r1 = TimedWait.await(counter, 1);
        counter.decrement();
    }

    @Actor
    public void decrementThenWaitForZero(II_Result r) {
        counter.decrement();
        r.r2 = TimedWait.await(counter, 0);
    }
}
