package dev.weft;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
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
            ThreadPoolExecutor e = new ThreadPoolExecutor(MAX_THREADS, MAX_THREADS, KEEP_ALIVE_SECONDS,
                    TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, systemName + "-blocking-" + ids.getAndIncrement());
                        t.setDaemon(true);
                        return t;
                    });
            e.allowCoreThreadTimeOut(true);
            executor = e;
        }
        return executor;
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
