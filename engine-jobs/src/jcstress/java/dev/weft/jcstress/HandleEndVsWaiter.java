package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.Counter;
import dev.weft.HandleEnds;
import dev.weft.JobHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Guarantee (SYNCHRONIZATION.md §19): a waiter that makes the handle's counter while the job ends is
 * never left waiting. Either the end comes first and the waiter finds it ended (no counter), or the
 * waiter's counter is installed first and the end takes it and decrements it to zero. A counter left
 * at 1 is a join that parks forever.
 *
 * <p>r1: 1 if the waiter got a counter, 0 if it found the job ended; r2: that counter's value once both
 * actors are done (-1: none); r3: 1 if the handle reads done with its value (42) afterwards.
 */
@JCStressTest
@Description("JobHandle: the job's end  vs  a waiter installing the counter it will wait on")
@Outcome(id = "0, -1, 1", expect = ACCEPTABLE, desc = "ended first: the waiter needs no counter")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the waiter's counter first: the end decremented it")
@Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "lost wake-up: the waiter's counter was never decremented")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class HandleEndVsWaiter {
    private final JobHandle<Integer> handle = HandleEnds.newHandle();
    private Counter waited;

    @Actor
    public void end() {
        HandleEnds.runAndEnd(handle);
    }

    @Actor
    public void waiter(III_Result r) {
        waited = HandleEnds.counterToWaitOn(handle);
        r.r1 = waited == null ? 0 : 1;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = waited == null ? -1 : (int) waited.value();
        r.r3 = handle.isDone() && handle.getNow(-1) == 42 ? 1 : 0;
    }
}
