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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Guarantee: a producer that publishes a job (release store, as a deque push) and signals, racing the
 * only worker going to sleep (register, re-scan, decide), never leaves the worker asleep and unsignalled
 * with the job queued: either the worker's re-scan sees the job, or the producer sees the worker
 * registered and signals it (Dekker: register's XADD vs signalWork's fence). The real
 * {@code WorkerParking} protocol runs; {@link ParkingModel} only supplies park states and the queue.
 *
 * <p>Result: r1 = the worker's decision (0 leave: saw work, 1 park), r2 = its park state afterwards
 * (0 awake, 1 parked, 2 signalled), r3 = jobs still queued.
 */
@JCStressTest
@Description("WorkerParking: publish + signalWork vs the last worker's register + re-scan + park decision")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the re-scan saw the job: the worker stays awake and takes it")
@Outcome(id = "1, 2, 1", expect = ACCEPTABLE, desc = "the worker parks; the producer saw it registered and signalled it")
@Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "lost wake-up: parked, unsignalled, with the job queued (fence or register-before-re-scan missing)")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class ParkingSubmitVsLastPark {
    private final ParkingModel parking = new ParkingModel(1, false);

    @Actor
    public void producer() {
        parking.publishAndSignal();
    }

    @Actor
    public void worker(III_Result r) {
        int d = parking.decideToPark(parking.registerAsleep(0));
        if (d != ParkingModel.DECIDED_PARK) {
            parking.leavePark(0);
        }
        r.r1 = d;
    }

    @Arbiter
    public void after(III_Result r) {
        r.r2 = parking.parkStateOf(0);
        r.r3 = parking.queued();
    }
}
