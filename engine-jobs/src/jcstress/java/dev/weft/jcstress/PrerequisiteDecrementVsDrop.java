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
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Guarantee (SYNCHRONIZATION.md §15, "A cancelled pending job leaves nothing behind"): a job submitted
 * after a counter whose handle is cancelled while the counter's last decrement runs ends one way per
 * continuation node: either the decrementer's fire CAS won (the continuation ran once, and the release
 * found the job taken by the cancel, or queued it before the cancel), or the drop's abandon CAS won (the
 * continuation never ran). Never both (a node ABANDONED whose continuation ran), never neither (a node
 * left WAITING), and whichever won, the node no longer holds its action (the Release, the job, its
 * closure), and the job is out of the pending set. The real {@code Release.register}, {@code Counter}
 * decrement and {@code JobHandle.cancel} (completeCancelled, then PendingJobs.forget: take, then
 * {@code Release.drop}); see {@link PendingDrops}.
 *
 * <p>r1: the node's state (1 FIRED, 3 ABANDONED, 0 WAITING); r2: the Release's remaining count (0: its
 * continuation ran); r3: 1 if the node still holds its action; r4: 1 if the job is still pending (nobody
 * took it); r5: 1 if {@code cancel()} returned true.
 */
@JCStressTest
@Description("after(counter at 1).submit: the counter's last decrement (fire)  vs  the handle's cancel() (drop)")
@Outcome(id = "1, 0, 0, 0, 1", expect = ACCEPTABLE, desc = "fire won: the continuation ran; the cancel took the job (or cancelled it before it started)")
@Outcome(id = "1, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "fire won and queued the job, which started before the cancel")
@Outcome(id = "3, 1, 0, 0, 1", expect = ACCEPTABLE, desc = "drop won: the node was abandoned, its continuation never ran")
@Outcome(id = "3, 0, 0, .*", expect = FORBIDDEN, desc = "both: the node was abandoned and its continuation ran")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "neither: the node is still WAITING")
@Outcome(id = "[13], ., 1, .*", expect = FORBIDDEN, desc = "leak: the ended node still holds its action")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class PrerequisiteDecrementVsDrop {
    private final Counter counter = new Counter("jcstress");
    private final PendingDrops.Pending job;

    public PrerequisiteDecrementVsDrop() {
        counter.add(1);
        job = PendingDrops.submitted(counter);
    }

    @Actor
    public void decrement() {
        counter.decrement();
    }

    @Actor
    public void cancel(IIIII_Result r) {
        r.r5 = PendingDrops.cancel(job) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r1 = PendingDrops.nodeState(job, 0);
        r.r2 = PendingDrops.remaining(job);
        r.r3 = PendingDrops.holdsAction(job, 0);
        r.r4 = PendingDrops.isPending(job) ? 1 : 0;
        PendingDrops.takeAndDrop(job);             // forbidden outcomes only: keep the pending set small
    }
}
