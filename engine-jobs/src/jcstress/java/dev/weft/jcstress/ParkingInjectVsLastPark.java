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
 * Guarantee: {@link ParkingSubmitVsLastPark} for a job injected by a thread that is not a worker, whose
 * signal ({@code signalInjectedWork}) starts its search at the worker that registered last instead of at
 * the round-robin cursor: the worker is never left asleep and unsignalled with the job queued. The real
 * {@code WorkerParking} protocol runs; {@link ParkingModel} only supplies park states and the queue.
 *
 * <p>Result: r1 = the worker's decision (0 leave: saw work, 1 park), r2 = its park state afterwards
 * (0 awake, 1 parked, 2 signalled), r3 = jobs still queued.
 */
@JCStressTest
@Description("WorkerParking: publish + signalInjectedWork vs the last worker's register + re-scan + park decision")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the re-scan saw the job: the worker stays awake and takes it")
@Outcome(id = "1, 2, 1", expect = ACCEPTABLE, desc = "the worker parks; the producer saw it registered and signalled it")
@Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "lost wake-up: parked, unsignalled, with the job queued (fence or register-before-re-scan missing)")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class ParkingInjectVsLastPark {
    private final ParkingModel parking = new ParkingModel(1, false);

    @Actor
    public void producer() {
        parking.injectAndSignal();
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
