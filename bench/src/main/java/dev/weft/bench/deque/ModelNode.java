package dev.weft.bench.deque;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A recycled job node, as Weft's: the job and its counter are written into it before each push and
 * cleared when it has run, and it goes back to the free list of the thread that made it.
 * {@link #stamp} is only {@link NodeClaimDeque}'s: the index the node was last pushed at, or its
 * complement once a taker claimed it.
 */
final class ModelNode {
    static final VarHandle STAMP;

    static {
        try {
            STAMP = MethodHandles.lookup().findVarHandle(ModelNode.class, "stamp", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    Runnable job;
    Object counter;
    int index;                      // which job of the round, for the exactly-once check
    @SuppressWarnings("unused")     // through STAMP
    private volatile long stamp = -1;

    /** Runs the job and clears the node for reuse (nothing it ran stays reachable from it); its index. */
    int runAndClear() {
        Runnable r = job;
        job = null;
        counter = null;
        r.run();
        return index;
    }
}
