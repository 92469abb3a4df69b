package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.ParkingModel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Guarantee (SYNCHRONIZATION.md §11): a FRAME job published into an empty queue (release store, then
 * {@code WorkerParking.signalWork(FRAME)}) racing a BACKGROUND job's checkpoint that clears the mask and
 * scans, with the FRAME bit already set by earlier work (so the producer's read sees it set and writes
 * nothing, the hard case): either the checkpoint's scan finds the job, or the bit is set afterwards, so a
 * later checkpoint finds it. Never neither. The real CheckpointSignal and signalWork run.
 *
 * <p>Result: r1 = the checkpoint found the job (1: it would yield), r2 = the FRAME bit afterwards.
 */
@JCStressTest
@Description("CheckpointSignal: publish + signalWork(FRAME) vs a checkpoint's clear + scan, stale bit set")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the scan found the job (and set the bit back)")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the checkpoint missed it, but the producer set the bit again")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost: the job is queued, the bit clear, no checkpoint will yield")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class CheckpointSignalQueuedVsClear {
    private final ParkingModel model = new ParkingModel(1, false);

    public CheckpointSignalQueuedVsClear() {
        model.staleFrameBit();
    }

    @Actor
    public void producer() {
        model.publishFrameAndSignal();
    }

    @Actor
    public void checkpoint(II_Result r) {
        r.r1 = model.checkpoint();
    }

    @Arbiter
    public void after(II_Result r) {
        r.r2 = model.frameBit();
    }
}
