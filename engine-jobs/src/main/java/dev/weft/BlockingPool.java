package dev.weft;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The platform threads a job system lends to {@link Jobs#blocking(java.util.concurrent.Callable)}: made on
 * first use (a game that never blocks never starts one), up to {@link #MAX_THREADS} at once (more calls
 * queue), idle threads retire after {@link #KEEP_ALIVE_SECONDS}, and all are stopped when the job system
 * terminates. Daemon threads named {@code <system>-blocking-N}.
 *
 * <p><b>Compensation.</b> A call may wait for a job (it submits one and joins it, as a loader does), and
 * that job may make a blocking call of its own. With every thread in such a wait, the inner calls queued
 * behind them and nothing ran again: 100 such calls on 2 workers hung for good. So a thread of this pool
 * that enters a Weft wait ({@link CounterWait}) raises the limit by one for as long as it waits and starts
 * a thread for any call already queued, as ForkJoinPool's {@code ManagedBlocker} does, up to
 * {@link #MAX_COMPENSATING} waits at once.
 *
 * <p>Threading: {@link #executor()} may be called from any fiber. The executor is published through a
 * volatile field; its creation, {@link #close()} and a compensating wait's start and end take this
 * object's monitor, which only the first call, termination and blocking threads that wait for jobs
 * contend for (never the per-job path).
 */
final class BlockingPool {
    /** Blocking calls that run at once; more wait in the queue (a file system gains nothing beyond this). */
    static final int MAX_THREADS = 64;
    static final long KEEP_ALIVE_SECONDS = 30;
    /** Waits of this pool's threads that each add a thread at once; beyond, waits add none (see above). */
    static final int MAX_COMPENSATING = 256;
    private static final Runnable NOTHING = () -> { };

    private final String systemName;
    private volatile ThreadPoolExecutor executor;   // null until first use; written under the monitor
    private boolean closed;                         // guarded by this
    private int compensating;                       // this pool's threads in a Weft wait, counted; guarded by this
    // One stderr line per pool about a call that sat queued (starvedCall): the first waiter to win the CAS prints.
    private final AtomicBoolean warnedStarved = new AtomicBoolean();

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
                        Thread t = new BlockingThread(this, r, systemName + "-blocking-" + ids.getAndIncrement());
                        t.setDaemon(true);
                        return t;
                    }, (call, pool) -> {
                        if (pool.isShutdown()) {
                            throw new RejectedExecutionException("job system '" + systemName + "' has terminated: "
                                    + "its blocking pool takes no more calls");
                        }
                        if (call instanceof BlockingCall<?> waited) {
                            waited.queuedIn(this);   // its waiter (this thread) watches for a start (starvedCall)
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

    /** A thread of a blocking pool: its waits for jobs let the pool add a thread ({@link #waitBegan}). */
    static final class BlockingThread extends Thread {
        final BlockingPool pool;

        BlockingThread(BlockingPool pool, Runnable r, String name) {
            super(r, name);
            this.pool = pool;
        }
    }

    /**
     * One of this pool's threads begins a Weft wait: the limit goes up by one while it waits, and a call
     * already queued gets a thread now (a later call finds room and starts one itself). False if it
     * compensates nothing (the pool is closed, or {@link #MAX_COMPENSATING} waits already do); else the
     * caller must call {@link #waitEnded} when its wait ends.
     */
    boolean waitBegan() {
        ThreadPoolExecutor e = executor;
        synchronized (this) {
            if (e == null || closed || compensating >= MAX_COMPENSATING) {
                return false;
            }
            compensating++;
            e.setMaximumPoolSize(MAX_THREADS + compensating);
        }
        if (!e.getQueue().isEmpty()) {
            try {
                e.execute(NOTHING);                    // no idle thread: a new one, which then takes the queued calls
            } catch (RejectedExecutionException terminated) {
                // closed meanwhile: the queued calls were cancelled with the pool
            }
        }
        return true;
    }

    /** The wait {@link #waitBegan} counted has ended: the limit comes down (an extra thread retires when idle). */
    void waitEnded() {
        ThreadPoolExecutor e = executor;
        synchronized (this) {
            compensating--;
            if (!closed) {
                e.setMaximumPoolSize(MAX_THREADS + compensating);
            }
        }
    }

    /** How long a call queued behind busy threads may wait unstarted before {@link #starvedCall} speaks. */
    static final long STARVED_WARNING_NANOS = 2_000_000_000L;

    /**
     * A call that was queued because every thread was busy has waited {@link #STARVED_WARNING_NANOS} and
     * not started: says so on stderr, once per pool. 65 calls that each wait on a latch all of them count
     * down (or 321 that each wait on a Weft counter all of them decrement: 64 threads plus 256 compensating
     * waits) hung without a word, the last call queued behind threads that could never return. A slow disk
     * can starve calls too, so this warns rather than fails: the wait goes on. Cold: once per queued call.
     */
    void starvedCall(String call) {
        ThreadPoolExecutor e = executor;
        if (e == null || !warnedStarved.compareAndSet(false, true)) {
            return;
        }
        int waitingForJobs;
        synchronized (this) {
            waitingForJobs = compensating;
        }
        System.err.println("weft: blocking call " + call + " of job system '" + systemName + "' has waited "
                + STARVED_WARNING_NANOS / 1_000_000_000L + " s for a thread and not started: all " + e.getPoolSize()
                + " of its blocking threads are in calls that have not returned (" + MAX_THREADS + " at once, plus one"
                + " for each call waiting for a Weft job, " + waitingForJobs + " now, at most " + MAX_COMPENSATING
                + "), with " + e.getQueue().size() + " queued behind them. If the running calls wait for"
                + " the queued ones (a latch or barrier that every call must reach), they never return: run such"
                + " calls on threads of your own with Jobs.blocking(executor, call), or make them wait for one"
                + " another outside the blocking calls");
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
