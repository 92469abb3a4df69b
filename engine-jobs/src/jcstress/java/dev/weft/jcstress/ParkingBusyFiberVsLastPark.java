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
 * Guarantee: the termination decision never ends the system while a fiber is out of the idle pool,
 * though each worker counts its own fibers (a per-worker balance, summed by the decider; no line every
 * worker writes). Two workers, the system closing, one job queued (submitted before close). Worker 0
 * takes it and starts it on a fiber (its own balance +1), the fiber parks in a wait that nothing ends
 * here (a sleep, a timed wait: the fiber stays busy), then worker 0 registers as asleep and decides.
 * Worker 1 registers and decides, racing that. Whichever registers last sees every worker asleep and
 * no queued work: only the fiber count can stop it, so it must read worker 0's balance, not its own.
 *
 * <p>Result: r1 = worker 0's decision, r2 = worker 1's (0 leave: saw work, 1 park, 2 terminate).
 */
@JCStressTest
@Description("WorkerParking: the last worker's quiescence check vs a fiber started on the other worker and still busy")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both park: the busy fiber's carrier re-checks when it parks again")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "worker 1's re-scan saw the job before worker 0 took it")
@Outcome(id = {"1, 2", "2, 1", "2, 0", "2, 2", "0, 2"}, expect = FORBIDDEN, desc = "terminated with a busy fiber (0, 2: worker 0 then saw it terminated)")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class ParkingBusyFiberVsLastPark {
    private final ParkingModel parking = new ParkingModel(2, true);

    public ParkingBusyFiberVsLastPark() {
        parking.publish();
    }

    @Actor
    public void worker0(II_Result r) {
        if (parking.take()) {
            parking.fiberStartedOn(0);          // the job's fiber: out of the pool, then parked in its wait
        }
        r.r1 = parking.tryToPark(0);
    }

    @Actor
    public void worker1(II_Result r) {
        r.r2 = parking.tryToPark(1);
    }
}
