package dev.weft;

import java.util.concurrent.ConcurrentLinkedQueue;
import org.jctools.queues.varhandle.MpmcVarHandleArrayQueue;

/**
 * The shared idle fiber pool, behind the workers' spare slots ({@link FiberPool}): any worker's carrier
 * offers a fiber that parked idle (after its unmount) and found its spare slot full, any worker polls
 * one to start a job. Multi-producer, multi-consumer.
 *
 * <p>A bounded JCTools MPMC array queue (VarHandles, no {@code sun.misc.Unsafe}: no JVM flag) of
 * {@link #CAPACITY} holds the idle fibers of a game's steady state with no allocation per offer. More
 * idle fibers than that exist only after a burst of parked jobs (thousands waiting at once, then all
 * done): the rest go to an unbounded {@link ConcurrentLinkedQueue}, which allocates a node per offer
 * there and nowhere else. Polls look in the array first, then in the overflow, so no fiber is stranded
 * in either: an offer to the overflow happens only after the array refused it, and a poll that finds
 * the array empty reads the overflow after it (both are linearizable queues; a fiber in either is found
 * by the next poll that looks there). Which idle fiber a worker gets does not matter: all are alike.
 */
final class IdleFibers {
    /** Idle fibers kept without allocation; beyond it, the overflow queue. */
    static final int CAPACITY = 1024;

    private final MpmcVarHandleArrayQueue<Fiber> pooled = new MpmcVarHandleArrayQueue<>(CAPACITY);
    private final ConcurrentLinkedQueue<Fiber> overflow = new ConcurrentLinkedQueue<>();

    /** Any worker's carrier, after the fiber unmounted. */
    void offer(Fiber f) {
        if (!pooled.offer(f)) {
            overflow.offer(f);
        }
    }

    /** Any worker: an idle fiber, or null. */
    Fiber poll() {
        Fiber f = pooled.poll();
        return f != null ? f : overflow.poll();
    }

    /** True if the array part looked full: the pool holds what a steady state needs, and more would overflow. */
    boolean looksFull() {
        return pooled.size() >= CAPACITY;
    }

    /** For tests: the entries in both queues (a snapshot). */
    int size() {
        return pooled.size() + overflow.size();
    }

    /** True if no idle fiber was visible (the array, then the overflow). */
    boolean isEmpty() {
        return pooled.isEmpty() && overflow.isEmpty();
    }
}
