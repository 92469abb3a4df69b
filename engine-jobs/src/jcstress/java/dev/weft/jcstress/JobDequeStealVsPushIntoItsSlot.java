package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.JobDequeModel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Guarantee: a thief's clearing of the slot it took never erases the owner's next push into that slot.
 * The ring (capacity 4) is full; the thief steals index 0 while the owner pushes index 4, which goes into
 * slot 0 if the owner reads a top of 1, or into a grown ring if it reads 0. The thief clears the slot
 * with a plain store before its release store of top, and the owner reuses the slot only after reading
 * that top, so the clear is never after the push. FAILED with the two swapped (top stored, then the
 * slot cleared): the owner's push is erased and the arbiter's pops stop at the hole.
 */
@JCStressTest
@Description("JobDeque: a thief clearing its slot vs the owner pushing into the same slot a ring later")
@Outcome(id = "1, 30", expect = ACCEPTABLE, desc = "the thief took 1; 2, 3, 4 and 5 are all still there")
@Outcome(expect = FORBIDDEN, desc = "a push was lost (the thief's clear erased it), an element came out twice, or the thief did not get the oldest")
@State
public class JobDequeStealVsPushIntoItsSlot {
    private final JobDequeModel deque = new JobDequeModel(4);

    public JobDequeStealVsPushIntoItsSlot() {
        for (int v = 1; v <= 4; v++) {
            deque.push(v);
        }
    }

    @Actor
    public void owner() {
        deque.push(5);
    }

    @Actor
    public void thief(II_Result r) {
        r.r1 = deque.steal();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = deque.drainMask();      // bits of 2, 3, 4, 5: 0b11110 = 30
    }
}
