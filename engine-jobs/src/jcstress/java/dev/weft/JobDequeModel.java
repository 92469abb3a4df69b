package dev.weft;

/**
 * {@link JobDeque} for the jcstress tests in {@code dev.weft.jcstress} (the deque is package-private):
 * elements are small values carried by job nodes, 0 meaning "none". The nodes are made up front, one per
 * value, so that a test can push the same node again, as Weft recycles them.
 */
public final class JobDequeModel {
    private final JobDeque deque;
    private final ValueNode[] nodes = new ValueNode[32];

    public JobDequeModel(int initialCapacity) {
        deque = new JobDeque(initialCapacity, null);
        for (int v = 1; v < nodes.length; v++) {
            nodes[v] = new ValueNode(v);
        }
    }

    /** Owner: pushes value {@code v}'s node. */
    public void push(int v) {
        deque.push(nodes[v]);
    }

    /** Owner: pushes a node popped from another model (or this one) again. */
    public void pushNodeOf(JobDequeModel from, int v) {
        deque.push(from.nodes[v]);
    }

    /** Owner: puts value {@code v}'s node on the overflow list, as a push whose ring could not grow does. */
    public void keepOverflow(int v) {
        deque.keepOverflow(nodes[v]);
    }

    /** Any thread: takes the whole overflow list (a thief, shutdownNow's drain); a bit mask of its values (-1: one twice). */
    public int takeAllOverflowMask() {
        int mask = 0;
        for (JobNode n = deque.takeAllOverflow(); n != null; ) {
            JobNode next = n.nextFree;
            n.nextFree = null;
            int bit = 1 << (value(n) - 1);
            if ((mask & bit) != 0) {
                return -1;
            }
            mask |= bit;
            n = next;
        }
        return mask;
    }

    /** Owner: the value popped, or 0. */
    public int pop() {
        return value(deque.pop());
    }

    /** Any thread: the value stolen, or 0. */
    public int steal() {
        return value(deque.steal());
    }

    /**
     * Pops everything into a bit mask of the values left (-1: one twice). An arbiter runs after the
     * actors, so it may act as the owner.
     */
    public int drainMask() {
        int mask = 0;
        int v;
        while ((v = pop()) != 0) {
            int bit = 1 << (v - 1);
            if ((mask & bit) != 0) {
                return -1;
            }
            mask |= bit;
        }
        return mask;
    }

    private static int value(JobNode n) {
        return n == null ? 0 : ((ValueNode) n).value;
    }

    private static final class ValueNode extends JobNode {
        final int value;

        ValueNode(int value) {
            this.value = value;
        }

        @Override
        void execute() {
        }

        @Override
        void complete(Scheduler s, Throwable failure, boolean cancelled, Fiber on) {
        }

        @Override
        String defaultName() {
            return "node " + value;
        }
    }
}
