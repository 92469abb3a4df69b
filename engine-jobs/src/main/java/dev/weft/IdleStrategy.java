package dev.weft;

/**
 * What a worker does when it finds no work: spin a little (work often arrives within microseconds in a
 * frame), then, optionally, yield, then park until woken. In the spirit of Agrona's idle strategies; the
 * names share the suffix. A parked worker is woken only when work it could take appears where there was
 * none.
 *
 * <pre>{@code
 * JobSystem.builder().idleStrategy(IdleStrategy.backoff(200, 0)).build();   // the default: spin, then park
 * JobSystem.builder().idleStrategy(IdleStrategy.busySpin()).build();        // lowest latency, burns a core
 * }</pre>
 *
 * <p><b>Why the default does not yield.</b> On Linux's EEVDF scheduler (6.6 and later) a worker that called
 * {@link Thread#yield()} (sched_yield) while another thread wanted its core, and then parked, starts its
 * next job only after that thread has run about a time slice more: a job submitted from a main thread that
 * goes on with its own work (render submission) started 1.9 ms late, every time, against 17 µs for a
 * {@link java.util.concurrent.ForkJoinPool} (bench {@code StartAfterIdle}, 2 cores, Linux 6.18). One yield
 * is enough; parking without yielding has no such debt (28 µs). Yields help one thing: a thread that submits
 * thousands of tiny jobs one by one while every core runs a worker (the workers stay awake instead of
 * parking and being woken): {@code EmptyJobs} from the benchmark thread, 280 against 860 ns per job. Choose
 * {@code backoff(200, 20)} only for that, and only where start latency does not matter.
 *
 * @param spins  scans of the queues with {@link Thread#onSpinWait()} between them before yielding
 * @param yields scans with {@link Thread#yield()} between them before parking (see above: 0 by default)
 * @param parks  whether the worker finally parks; false means it keeps yielding (or spinning) forever
 */
public record IdleStrategy(int spins, int yields, boolean parks) {
    /**
     * Default spins before parking. Longer spins delay the next start the way yields do, though less: a
     * spinning worker takes CPU time from a thread that shares its core (StartAfterIdle p50: 28 µs at 200,
     * 57 µs at 1,000, 224 µs at 5,000).
     */
    public static final int DEFAULT_SPINS = 200;
    /** Default yields before parking: none (see the class comment). */
    public static final int DEFAULT_YIELDS = 0;

    /**
     * Checks the counts.
     *
     * @throws IllegalArgumentException if {@code spins} or {@code yields} is negative
     */
    public IdleStrategy {
        if (spins < 0 || yields < 0) {
            throw new IllegalArgumentException("spins and yields must be >= 0, got " + spins + ", " + yields);
        }
    }

    /**
     * Spin, then yield, then park. The default is {@code backoff(200, 0)}.
     *
     * @param spins scans with {@link Thread#onSpinWait()} between them before yielding; 0 or more
     * @param yields scans with {@link Thread#yield()} between them before parking; 0 or more
     * @return a strategy that ends by parking
     */
    public static IdleStrategy backoff(int spins, int yields) {
        return new IdleStrategy(spins, yields, true);
    }

    /**
     * {@link #backoff(int, int)} with the default counts.
     *
     * @return the default strategy
     */
    public static IdleStrategy backoff() {
        return backoff(DEFAULT_SPINS, DEFAULT_YIELDS);
    }

    /**
     * Never parks, never yields: each idle worker burns its core. For dedicated benchmark machines.
     *
     * @return a strategy that only spins
     */
    public static IdleStrategy busySpin() {
        return new IdleStrategy(Integer.MAX_VALUE, 0, false);
    }

    /**
     * Never parks: yields between scans. Costs the start-latency debt of the class comment on every start.
     *
     * @return a strategy that only yields
     */
    public static IdleStrategy yielding() {
        return new IdleStrategy(0, Integer.MAX_VALUE, false);
    }
}
