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
 * Guarantee (held-back decrements, SYNCHRONIZATION.md §13): a worker that ran two jobs of a counter and
 * held their decrements back subtracts both with one {@code decrement(2)} at a flush point. A waiter that
 * the flush lets through must see both jobs' writes (the plain writes, then the flush CAS, in the
 * worker's program order; the waiter's volatile read of the value, then its reads), and must be woken
 * by it, not by its timeout. Counter at 2, as it is after two jobs of it were submitted.
 *
 * <p>Result: r1 = the waiter's await(0) as {@link TimedWait} classifies it (1 = released in time), r2 =
 * how many of the two jobs' writes the waiter saw after it returned.
 */
@JCStressTest
@Description("Counter at 2: worker = job1 writes, job2 writes, flush decrement(2)  vs  waiter = await(0); read writes")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "released by the flush, and saw both jobs' writes")
@Outcome(id = {"1, 0", "1, 1"}, expect = FORBIDDEN, desc = "released but missed a held job's write: the flush did not publish it")
@Outcome(expect = FORBIDDEN, desc = "slept through the flush until its timeout, timed out, or threw")
@State
public class CounterHeldFlushVsWaiter {
    private final Counter counter = new Counter("jcstress");
    private int firstJobWrote;
    private int secondJobWrote;

    public CounterHeldFlushVsWaiter() {
        counter.add(2);
    }

    @Actor
    public void workerRunsTwoJobsThenFlushes() {
        firstJobWrote = 1;           // job 1's body; its decrement is held back (heldEnded = 1)
        secondJobWrote = 1;          // job 2's body; heldEnded = 2
        counter.decrement(2);        // the flush: one CAS for both
    }

    @Actor
    public void waiter(II_Result r) {
        r.r1 = TimedWait.await(counter, 0);
        r.r2 = firstJobWrote + secondJobWrote;
    }
}
