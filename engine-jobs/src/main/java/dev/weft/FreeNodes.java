package dev.weft;

import org.jctools.queues.MessagePassingQueue;

/**
 * One worker's recycled nodes of one kind ({@link PooledJob} or {@link RangeNode}): a LIFO stack linked
 * through {@link JobNode#nextFree}. Owner-only, plain fields: only the worker's own thread (its carrier
 * or a fiber mounted on it) pushes and pops; nodes finished by other workers come home through the
 * worker's {@code returned} queue and are moved here by the owner.
 *
 * <p>Why not an {@code ArrayDeque}: a push or pop here is two plain writes on lines the worker and the
 * node already hold, with no ring index arithmetic and no backing array to keep in cache. The most
 * recently freed node, the one most likely still in cache, is the next one taken.
 */
final class FreeNodes {
    private final int capacity;
    private JobNode top;
    private int size;
    /** {@link #push} as the consumer a returned queue drains into (made once: draining allocates nothing). */
    final MessagePassingQueue.Consumer<JobNode> pushAll = this::push;

    FreeNodes(int capacity) {
        this.capacity = capacity;
    }

    /** Keeps {@code node} for reuse; false (the node is left to the garbage collector) when full. */
    boolean push(JobNode node) {
        if (size >= capacity) {
            return false;
        }
        node.nextFree = top;
        top = node;
        size++;
        return true;
    }

    /** The most recently pushed node, or null if none. */
    JobNode pop() {
        JobNode n = top;
        if (n != null) {
            top = n.nextFree;
            n.nextFree = null;
            size--;
        }
        return n;
    }

    int size() {
        return size;
    }
}
