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
 * Guarantee: a worker that close()'s wake-up signalled is not counted asleep once it holds a job. Two
 * workers; a job was submitted before close(); worker 0 has registered as asleep and not re-scanned
 * yet. The closer (a thread no counter covers) wakes every worker. The other actor plays worker 0 and
 * then worker 1 on one thread: worker 0 re-scans, leaves its park and takes the job; then worker 1
 * registers, re-scans and decides. If the closer's signal made worker 0's own unregistration a no-op
 * and the closer's decrement has not happened yet, worker 1 sees every worker asleep, misses the job
 * and terminates.
 *
 * <p>Result: r1 = 1 if worker 0 took the job, r2 = worker 1's decision (0 leave, 1 park, 2 terminate).
 */
@JCStressTest
@Description("WorkerParking: close()'s wakeAll vs a worker leaving with a job, then the last worker's park decision")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "worker 0 took the job; worker 1 parks")
@Outcome(id = "1, 2", expect = FORBIDDEN, desc = "terminated while worker 0 holds the job: it was still counted asleep")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class ParkingLastParkVsTakeAfterWakeAll {
    private final ParkingModel parking = new ParkingModel(2, true);
    private final long ticket0;

    public ParkingLastParkVsTakeAfterWakeAll() {
        parking.publish();
        ticket0 = parking.registerAsleep(0);
    }

    @Actor
    public void closer() {
        parking.wakeEveryone();
    }

    @Actor
    public void worker0ThenWorker1(II_Result r) {
        if (parking.decideToPark(ticket0) != ParkingModel.DECIDED_PARK) {
            parking.leavePark(0);
            r.r1 = parking.take() ? 1 : 0;
        }
        int d = parking.decideToPark(parking.registerAsleep(1));
        if (d != ParkingModel.DECIDED_PARK) {
            parking.leavePark(1);
        }
        r.r2 = d;
    }
}
