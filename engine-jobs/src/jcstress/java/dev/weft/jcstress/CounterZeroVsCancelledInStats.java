package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.CancelledJobs;
import dev.weft.Counter;
import dev.weft.JobHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Guarantee (README "Guarantees", SYNCHRONIZATION.md §2 {@code JobNode.completeCancelled}): a counter at
 * zero means every job it counts has ended, and a cancelled one is already in {@code stats()}. The
 * canceller is a thread that is not a worker ({@code handle.cancel()} from the game loop), so the
 * cancellation goes to the job system's outside count, an XADD made before the counter's decrement CAS.
 *
 * <p>The stats are shared by every state of the run, so the canceller reads them just before it
 * cancels ({@code before}, published to the watcher by the same decrement) and the watcher asks for at
 * least one more: the count never goes down, and only this cancel can have added the one.
 *
 * <p>r1: 1 if the watcher saw the counter at zero; r2: (only then) 1 if {@code stats().jobsCancelled()}
 * already counted the cancellation, else 0; -1 if the counter was not at zero yet.
 */
@JCStressTest
@Description("JobNode.completeCancelled: the cancellation counted in stats()  vs  a thread that sees the counter at zero")
@Outcome(id = "0, -1", expect = ACCEPTABLE, desc = "the watcher came first: the counter was still at one")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the counter at zero, and the cancellation in stats()")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "the counter at zero before stats() counted its cancelled job")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class CounterZeroVsCancelledInStats {
    private final Counter counter = CancelledJobs.newCounter();
    private final JobHandle<Integer> job = CancelledJobs.newJob(counter);
    private long before;   // plain: written before the cancel, read after seeing its decrement

    @Actor
    public void canceller() {
        before = CancelledJobs.jobsCancelled();
        job.cancel();
    }

    @Actor
    public void watcher(II_Result r) {
        if (!counter.isDone()) {
            r.r1 = 0;
            r.r2 = -1;
            return;
        }
        r.r1 = 1;
        r.r2 = CancelledJobs.jobsCancelled() > before ? 1 : 0;
    }
}
