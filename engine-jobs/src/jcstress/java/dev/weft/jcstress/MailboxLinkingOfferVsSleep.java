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
 * {@link MailboxOfferVsSleep} on the other path of the queue's offer: the chunk is full (one job queued
 * in a 2-slot chunk), so the producer CASes the producer index to an odd "resizing" value, links a new
 * chunk, and publishes the index with a release store, which a later load may pass (StoreLoad). The
 * owner takes the queued job meanwhile, so while the index is odd the queue reads empty. The full fence
 * in {@code MainThreadMailbox.offer} orders that release store before the read of {@code asleep}.
 *
 * <p>r1: 1 if the owner would park, 0 if it saw the job; r2: {@code asleep} once both are done (1: the
 * owner parks and nobody will unpark it).
 */
@JCStressTest
@Description("Main-thread mailbox: an offer that links a new chunk  vs  the owner draining and going to sleep")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the owner saw the job and stays awake")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the owner parks; the producer saw it asleep and woke it")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost wake-up: the owner parks with a job queued, nobody wakes it")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class MailboxLinkingOfferVsSleep {
    private final MailboxHandshake mailbox = MailboxHandshake.atFullChunk();

    @Actor
    public void producer() {
        mailbox.offer();
    }

    @Actor
    public void owner(II_Result r) {
        mailbox.take();                      // the job queued before: the queue may look drained now
        r.r1 = mailbox.wouldPark() ? 1 : 0;
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = mailbox.asleep();
    }
}
