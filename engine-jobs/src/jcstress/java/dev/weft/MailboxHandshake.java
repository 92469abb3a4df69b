package dev.weft;

import dev.weft.internal.InjectionQueue;

/**
 * jcstress only: a {@link MainThreadMailbox} outside any job system (no owner bound, so a producer's
 * wake-up unparks nobody and shows in {@link #asleep}), with the two sides of its sleep handshake.
 */
public final class MailboxHandshake {
    private final InjectionQueue<JobHandle<?>> queue;
    private final MainThreadMailbox mailbox;
    // A main-thread job that is never run: only its place in the queue matters here.
    private final JobHandle<Integer> job = new JobHandle<>(null, "jcstress", Priority.FRAME, () -> 42, null, null);

    /** The production queue, empty: the producer's offer CASes the producer index last. */
    public MailboxHandshake() {
        this(new InjectionQueue<>());
    }

    private MailboxHandshake(InjectionQueue<JobHandle<?>> queue) {
        this.queue = queue;
        this.mailbox = new MainThreadMailbox(null, queue);
    }

    /**
     * A queue of 2-slot chunks with one job already queued: the chunk is full, so the producer's offer
     * links a new chunk and publishes its index with a release store (the path the fence in
     * {@code offer} is for), while the owner takes the queued job and goes to sleep.
     */
    public static MailboxHandshake atFullChunk() {
        MailboxHandshake h = new MailboxHandshake(new InjectionQueue<>(2));
        h.queue.offer(new JobHandle<>(null, "queued before", Priority.FRAME, () -> 0, null, null));
        return h;
    }

    /** The producer's side: offer, full fence, read {@code asleep}, and wake the owner if it is 1. */
    public void offer() {
        mailbox.offer(job);
    }

    /** The owner's side, about to park: true if it would park (the queue looked empty after it slept). */
    public boolean wouldPark() {
        return mailbox.sleep();
    }

    /** The owner's side: takes the oldest queued job (without running it), as its wait loop does; null if none. */
    public Object take() {
        return queue.poll();
    }

    /** 1 while the owner is asleep and nobody has woken it. */
    public int asleep() {
        return mailbox.asleepForTests();
    }
}
