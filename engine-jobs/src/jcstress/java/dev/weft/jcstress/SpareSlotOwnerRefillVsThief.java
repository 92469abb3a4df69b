package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.internal.SpareSlot;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Guarantee (a worker's spare idle fiber, SYNCHRONIZATION.md §3 "Idle fibers"): while the owner takes its
 * spare (fiber 1) and parks another one there (fiber 2), a worker whose pool ran dry takes from the same
 * slot: every fiber comes out exactly once or is still in the slot, and the owner's offer after its take
 * always finds the slot empty (only the owner fills it). Results: owner's take, thief's take, the offer
 * (1 = kept), what the slot holds at the end; 0 = nothing.
 */
@JCStressTest
@Description("SpareSlot: owner take then offer vs a thief's take")
@Outcome(id = "1, 0, 1, 2", expect = ACCEPTABLE, desc = "owner took 1 and parked 2; the thief saw an empty slot")
@Outcome(id = "1, 2, 1, 0", expect = ACCEPTABLE, desc = "owner took 1 and parked 2; the thief took 2")
@Outcome(id = "0, 1, 1, 2", expect = ACCEPTABLE, desc = "the thief took 1 first; the owner found nothing and parked 2")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "fiber 1 taken twice: one fiber started for two jobs")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "fiber 1 lost")
@Outcome(id = ".*, 0, 1, 0", expect = FORBIDDEN, desc = "fiber 2 lost")
@Outcome(expect = FORBIDDEN, desc = "the offer after the take failed, or a fiber came out twice or from nowhere")
@State
public class SpareSlotOwnerRefillVsThief {
    private final SpareSlot<Integer> slot = new SpareSlot<>();

    public SpareSlotOwnerRefillVsThief() {
        slot.offer(1);
    }

    @Actor
    public void owner(IIII_Result r) {
        Integer e = slot.take();
        r.r1 = e == null ? 0 : e;
        r.r3 = slot.offer(2) ? 1 : 0;
    }

    @Actor
    public void thief(IIII_Result r) {
        Integer e = slot.take();
        r.r2 = e == null ? 0 : e;
    }

    @Arbiter
    public void left(IIII_Result r) {
        Integer e = slot.take();
        r.r4 = e == null ? 0 : e;
    }
}
