package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.Counter;
import dev.weft.PendingDrops;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Guarantee (SYNCHRONIZATION.md §15, "A cancelled pending job leaves nothing behind"): a job taken out of
 * the pending set while its registration is still storing its continuation nodes ({@code shutdownNow}'s
 * {@code cancelAll} racing {@code after(a, b).submit}) has every node abandoned: the registrar stores each
 * node (volatile), then reads {@code dropped}; {@code drop} writes {@code dropped}, then reads each node (a
 * Dekker pair), so each node is abandoned by one side or both. Two counters at 1 that nothing decrements:
 * only the drop can end a node, and a node left WAITING keeps the job and its closure for as long as its
 * counter lives (for ever, for a counter that never completes). The real {@code Release.register} and
 * {@code PendingJobs.forget} (take, then {@code Release.drop}: {@code cancelAll}'s step without the
 * handle's completion); see {@link PendingDrops}.
 *
 * <p>r1: 1 if the taker took the job (0: it ran before the registrar added the job to the pending set;
 * {@code shutdownNow} would then be seen by accept's re-read of the run state, and the arbiter takes it);
 * r2, r3: the two nodes' states (0 WAITING, 3 ABANDONED); r4: how many of them still hold their action.
 */
@JCStressTest
@Description("after(a, b).submit with a and b never completing: register  vs  take and drop")
@Outcome(id = "1, 3, 3, 0", expect = ACCEPTABLE, desc = "taken: both nodes abandoned, whichever side saw them")
@Outcome(id = "0, 0, 0, 2", expect = ACCEPTABLE, desc = "the take came before the job was pending: nothing to drop yet")
@Outcome(id = {"1, 0, .*", "1, 3, 0, .*"}, expect = FORBIDDEN, desc = "taken, but a node was left WAITING with its action: a leak for as long as its counter lives")
@Outcome(id = "1, 3, 3, [12]", expect = FORBIDDEN, desc = "both abandoned, but one still holds its action")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class PrerequisiteRegisterVsDrop {
    private final Counter a = new Counter("a");
    private final Counter b = new Counter("b");
    private final PendingDrops.Pending job;

    public PrerequisiteRegisterVsDrop() {
        a.add(1);
        b.add(1);
        job = PendingDrops.unregistered(a, b);
    }

    @Actor
    public void register() {
        PendingDrops.register(job);
    }

    @Actor
    public void drop() {
        PendingDrops.takeAndDrop(job);
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = PendingDrops.isPending(job) ? 0 : 1;
        r.r2 = PendingDrops.nodeState(job, 0);
        r.r3 = PendingDrops.nodeState(job, 1);
        r.r4 = PendingDrops.holdsAction(job, 0) + PendingDrops.holdsAction(job, 1);
        PendingDrops.takeAndDrop(job);             // not taken: take it now, so the pending set stays small
    }
}
