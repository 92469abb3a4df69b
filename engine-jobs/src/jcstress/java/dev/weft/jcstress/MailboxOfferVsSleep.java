package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.MailboxHandshake;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Guarantee (SYNCHRONIZATION.md §3, "Outside → main thread"): a main-thread job posted while the main
 * thread goes to sleep in a wait never leaves it asleep. The producer offers, fences, and reads
 * {@code asleep}; the owner stores {@code asleep = 1} and re-reads the queue. Either the owner sees the
 * job (it does not park) or the producer sees the owner asleep and wakes it (CAS 1 -> 0, then unpark).
 *
 * <p>r1: 1 if the owner would park, 0 if it saw the job; r2: {@code asleep} once both are done (1: the
 * owner parks and nobody will unpark it).
 */
@JCStressTest
@Description("Main-thread mailbox: a producer's offer  vs  the owner going to sleep")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the owner saw the job and stays awake")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the owner parks; the producer saw it asleep and woke it")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost wake-up: the owner parks with a job queued, nobody wakes it")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class MailboxOfferVsSleep {
    private final MailboxHandshake mailbox = new MailboxHandshake();

    @Actor
    public void producer() {
        mailbox.offer();
    }

    @Actor
    public void owner(II_Result r) {
        r.r1 = mailbox.wouldPark() ? 1 : 0;
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = mailbox.asleep();
    }
}
