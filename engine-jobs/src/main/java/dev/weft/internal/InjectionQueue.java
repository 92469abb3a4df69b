package dev.weft.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jctools.queues.varhandle.MpscUnboundedVarHandleArrayQueue;

/**
 * Where work from threads that are not workers (the game's main thread, I/O threads, timers) enters:
 * a JCTools multi-producer single-consumer queue, plus a consumer turn so that any worker may be the
 * single consumer, one at a time (the mailbox rule of the synchronization spec: many producers, one
 * owner at a time drains).
 *
 * <p>Producers: {@code offer} is one CAS on the producer index (lock-free, no syscall).
 * Consumers: a worker that finds the queue non-empty CASes the turn from 0 to 1, polls, and releases
 * the turn with a release store. A worker that loses the turn CAS reports "nothing" for now; it has not
 * parked yet, and its pre-park re-check reads {@link #isEmpty()}, so the element is not stranded.
 *
 * @param <E> element type
 */
public final class InjectionQueue<E> extends InjectionQueueLayout.PadAfterTurn {
    private static final VarHandle TURN;

    static {
        try {
            TURN = MethodHandles.lookup().findVarHandle(InjectionQueueLayout.Turn.class, "turn", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // JCTools' linked-chunk MPSC queue on VarHandles (no sun.misc.Unsafe, so no JVM flag): a producer
    // CASes the producer index (the Xadd form it replaced needed Unsafe). It wraps around in its chunk
    // while the consumers keep up and links a new, freshly allocated chunk (the VarHandle queue recycles
    // none, unlike the Xadd one) only when a whole chunk is queued. 1,024 slots (4 KB a queue) keep a
    // frame's burst of outside submissions in one chunk: with 256, a backlog of 1,000 made a poll cost
    // 23 ns against 4 for the Xadd queue (JMH, 2026-12-04, before this change).
    private static final int CHUNK = 1024;
    private final MpscUnboundedVarHandleArrayQueue<E> queue;
    // turn (0 = free, 1 = a consumer is polling) is declared in InjectionQueueLayout, between 128-byte pads.

    /** The production queue: chunks of 1,024 slots. */
    public InjectionQueue() {
        this(CHUNK);
    }

    /**
     * For tests: chunks of {@code chunkSlots} (a power of two, at least 2). With 2, an offer made while
     * one element is queued links a new chunk: the path that publishes the producer index with a release
     * store, which the fence in MainThreadMailbox.offer and WorkerParking.signalWork is for.
     */
    public InjectionQueue(int chunkSlots) {
        queue = new MpscUnboundedVarHandleArrayQueue<>(chunkSlots);
    }

    /** Any thread. */
    public void offer(E e) {
        queue.offer(e);
    }

    /** Any thread: true if nothing was visible at the moment of reading. */
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    /** Any thread: approximate size. */
    public int size() {
        return queue.size();
    }

    /** Any thread: takes one element if the queue is non-empty and the consumer turn is free. */
    public E poll() {
        if (queue.isEmpty() || !TURN.compareAndSet(this, 0, 1)) {
            return null;
        }
        try {
            return queue.poll();
        } finally {
            TURN.setRelease(this, 0);
        }
    }

    /**
     * Any thread: takes the oldest element only if {@code wanted} accepts it (the waiting-thread helper's
     * "only the jobs my wait depends on"); null if empty, refused, or the consumer turn is taken.
     */
    public E pollIf(java.util.function.Predicate<? super E> wanted) {
        if (queue.isEmpty() || !TURN.compareAndSet(this, 0, 1)) {
            return null;
        }
        try {
            E e = queue.peek();                    // we hold the one consumer turn: poll returns this one
            return e != null && wanted.test(e) ? queue.poll() : null;
        } finally {
            TURN.setRelease(this, 0);
        }
    }

    /**
     * Any thread: takes up to {@code max} elements under one consumer turn into {@code sink}; returns
     * how many were taken.
     */
    public int drain(java.util.function.Consumer<? super E> sink, int max) {
        if (queue.isEmpty() || !TURN.compareAndSet(this, 0, 1)) {
            return 0;
        }
        try {
            int n = 0;
            E e;
            while (n < max && (e = queue.poll()) != null) {
                sink.accept(e);
                n++;
            }
            return n;
        } finally {
            TURN.setRelease(this, 0);
        }
    }
}
