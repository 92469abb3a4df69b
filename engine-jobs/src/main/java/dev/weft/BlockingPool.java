package dev.weft;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The platform threads a job system lends to {@link Jobs#blocking(java.util.concurrent.Callable)}: made on
 * first use (a game that never blocks never starts one), up to {@link #MAX_THREADS} at once (more calls
 * queue), idle threads retire after {@link #KEEP_ALIVE_SECONDS}, and all are stopped when the job system
 * terminates. Daemon threads named {@code <system>-blocking-N}.
 *
 * <p>Threading: {@link #executor()} may be called from any fiber. The executor is published through a
 * volatile field; its creation and {@link #close()} take this object's monitor, which only the first call
 * and termination contend for (never the per-job path).
 */
final class BlockingPool {
    /** Blocking calls that run at once; more wait in the queue (a file system gains nothing beyond this). */
    static final int MAX_THREADS = 64;
    static final long KEEP_ALIVE_SECONDS = 30;

    private final String systemName;
    private volatile ThreadPoolExecutor executor;   // null until first use; written under the monitor
    private boolean closed;                         // guarded by this

    BlockingPool(String systemName) {
        this.systemName = systemName;
    }

    Executor executor() {
        ThreadPoolExecutor e = executor;
        return e != null ? e : create();
    }

    private synchronized ThreadPoolExecutor create() {
        if (closed) {
            throw new RejectedExecutionException("job system '" + systemName + "' has terminated: its blocking "
                    + "pool takes no more calls");
        }
        if (executor == null) {
            AtomicInteger ids = new AtomicInteger();
            HandOffFirst queue = new HandOffFirst();
            // No core threads: a thread starts only when no idle one took the call (see HandOffFirst), and
            // idles out after the keep-alive. With 64 core threads and a plain queue, the executor started a
            // new thread for each of the first 64 calls, idle threads or not, and a steady trickle of calls
            // (5 at a time) kept all 64 alive for good.
            ThreadPoolExecutor e = new ThreadPoolExecutor(0, MAX_THREADS, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
                    queue, r -> {
                        Thread t = new Thread(r, systemName + "-blocking-" + ids.getAndIncrement());
                        t.setDaemon(true);
                        return t;
                    }, (call, pool) -> {
                        if (pool.isShutdown()) {
                            throw new RejectedExecutionException("job system '" + systemName + "' has terminated: "
                                    + "its blocking pool takes no more calls");
                        }
                        queue.enqueue(call);   // all MAX_THREADS busy: the call waits for the first one free
                    });
            executor = e;
        }
        return executor;
    }

    /**
     * The executor's queue: {@code offer} hands a call to a thread already waiting for one and otherwise
     * refuses, so that the executor starts a new thread (up to {@link #MAX_THREADS}); at the maximum the
     * rejection handler queues the call for real. The threads that are busy then all poll this queue when
     * they finish, so a queued call is not stranded. (Tomcat's TaskQueue does the same.)
     */
    private static final class HandOffFirst extends LinkedTransferQueue<Runnable> {
        private static final long serialVersionUID = 1L;   // never serialized: a collection's obligation

        @Override
        public boolean offer(Runnable call) {
            return tryTransfer(call);
        }

        void enqueue(Runnable call) {
            super.offer(call);
        }
    }

    /** At termination: later calls are refused; calls still running are interrupted (nobody waits for them). */
    synchronized void close() {
        closed = true;
        ThreadPoolExecutor e = executor;
        if (e != null) {
            e.shutdownNow();
        }
    }
}
