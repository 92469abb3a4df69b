package dev.weft;

import java.util.ArrayDeque;
import org.jctools.queues.varhandle.MpscVarHandleArrayQueue;

/**
 * The recycled fire-and-forget nodes of one thread that is not a worker (the game's main thread, an
 * I/O thread): what lets {@code jobs.run(job, counter)} from outside allocate nothing in steady state,
 * as it does from a job.
 *
 * <p>Ownership: {@link #free} belongs to the thread (reached only through its ThreadLocal). Workers that
 * finished its nodes give them back in batches of {@value #BATCH} ({@link Worker#giveBackOutside}):
 * one offer into {@link #returned} (MPSC: workers produce, the thread consumes) per batch, so a node
 * costs no cross-core atomic of its own on the way home. The batch array is the only allocation, about
 * 4 B per job. A node is reset by the worker before the offer (release) and reused by the thread after
 * the poll (acquire). A full {@code returned} drops the batch: the nodes are garbage, nothing is lost.
 * A node the thread ran itself while it waited (WaitingHelp) it takes back at once ({@link #takeBack}).
 */
final class OutsideNodes {
    static final int BATCH = 32;
    private static final int MAX_FREE = Worker.MAX_FREE_NODES;   // as a worker keeps: a frame of in-flight jobs
    private static final ThreadLocal<OutsideNodes> OF_THREAD = ThreadLocal.withInitial(OutsideNodes::new);

    final Thread owner = Thread.currentThread();   // made by OF_THREAD on the thread whose nodes these are
    private final ArrayDeque<PooledJob> free = new ArrayDeque<>();
    final MpscVarHandleArrayQueue<PooledJob[]> returned = new MpscVarHandleArrayQueue<>(MAX_FREE / BATCH);

    /** The calling thread's nodes. */
    static OutsideNodes ofCurrentThread() {
        return OF_THREAD.get();
    }

    /** A node of ours, reset, that this thread (the owner) ran itself; dropped if the list is full. */
    void takeBack(PooledJob j) {
        if (free.size() < MAX_FREE) {
            free.push(j);
        }
    }

    /** A recycled node, or a new one that comes home here when a worker finished it. */
    PooledJob take() {
        PooledJob j = free.poll();
        if (j == null) {
            PooledJob[] batch = returned.relaxedPoll();
            if (batch != null) {
                for (PooledJob n : batch) {
                    if (n != null && free.size() < MAX_FREE) {
                        n.fetchLinesForWriting();
                        free.push(n);
                    }
                }
                j = free.poll();
            }
        }
        if (j == null) {
            j = new PooledJob();
            j.outsideHome = this;
        }
        return j;
    }
}
