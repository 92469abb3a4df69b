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

    /** The production mailbox, empty: the producer's offer CASes the producer index last. */
    public MailboxHandshake() {
        this(1024, false);
    }

    /**
     * @param chunkSlots the queue's chunk size (a power of two, at least 2)
     * @param oneQueued one job already queued: with 2 slots a chunk is then full, so the producer's offer
     *     links a new chunk and publishes its index with a release store (the path the fence in
     *     {@code offer} is for), while the owner takes the queued job and goes to sleep
     */
    public MailboxHandshake(int chunkSlots, boolean oneQueued) {
        queue = new InjectionQueue<>(chunkSlots);
        mailbox = new MainThreadMailbox(null, queue);
        if (oneQueued) {
            queue.offer(new JobHandle<>(null, "queued before", Priority.FRAME, () -> 0, null, null));
        }
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
