package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.ParkingModel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Guarantee: the termination decision never ends the system while a job is in a worker's hand. Two
 * workers, the system closing, one job queued (submitted before close). Worker 0 has registered as
 * asleep; its re-scan finds the job, it leaves and takes it (not started yet: no busy fiber counts it).
 * Worker 1 registers, re-scans and decides, racing that. Worker 1 may count worker 0 as asleep (its
 * XADD came first), and its re-scan may miss the job (worker 0 took it meanwhile): the decision must
 * still not be "terminate" (it would cancel the job, submitted before close, at its start).
 *
 * <p>Result: r1 = 1 if worker 0 took the job (after seeing the system not terminated), r2 = worker 1's
 * decision (0 leave: saw work, 1 park, 2 terminate).
 */
@JCStressTest
@Description("WorkerParking: the last worker's quiescence check vs a worker that leaves its park and takes a job")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "worker 1's re-scan saw the job before worker 0 took it")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "worker 1 parks (the job is in worker 0's hand; worker 0 will re-check)")
@Outcome(id = "1, 2", expect = FORBIDDEN, desc = "terminated while the job is in worker 0's hand: counted asleep after it woke, or a stale count")
@Outcome(expect = FORBIDDEN, desc = "anything else (a job lost, or termination with the job queued)")
@State
public class ParkingLastParkVsTakeAfterRescan {
    private final ParkingModel parking = new ParkingModel(2, true);
    private final long ticket0;

    public ParkingLastParkVsTakeAfterRescan() {
        parking.publish();
        ticket0 = parking.registerAsleep(0);
    }

    @Actor
    public void worker0(II_Result r) {
        if (parking.decideToPark(ticket0) != ParkingModel.DECIDED_PARK) {
            parking.leavePark(0);
            r.r1 = !parking.terminated() && parking.take() ? 1 : 0;
        }
    }

    @Actor
    public void worker1(II_Result r) {
        r.r2 = parking.tryToPark(1);
    }
}
