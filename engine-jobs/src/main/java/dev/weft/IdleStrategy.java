package dev.weft;

/**
 * What a worker does when it finds no work: spin a little (work often arrives within microseconds in a
 * frame), then yield, then park until woken. In the spirit of Agrona's idle strategies; the names share
 * the suffix. A parked worker is woken only when work it could take appears where there was none.
 *
 * <pre>{@code
 * JobSystem.builder().idleStrategy(IdleStrategy.backoff(200, 20)).build();  // the default
 * JobSystem.builder().idleStrategy(IdleStrategy.busySpin()).build();        // lowest latency, burns a core
 * }</pre>
 *
 * @param spins  scans of the queues with {@link Thread#onSpinWait()} between them before yielding
 * @param yields scans with {@link Thread#yield()} between them before parking
 * @param parks  whether the worker finally parks; false means it keeps yielding (or spinning) forever
 */
public record IdleStrategy(int spins, int yields, boolean parks) {
    /** Default spins before yielding (chosen by the WaitResume and EmptyJobs benchmarks on 2 cores). */
    public static final int DEFAULT_SPINS = 200;
    /** Default yields before parking. */
    public static final int DEFAULT_YIELDS = 20;

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
     * Spin, then yield, then park: the default.
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
     * Never parks: yields between scans.
     *
     * @return a strategy that only yields
     */
    public static IdleStrategy yielding() {
        return new IdleStrategy(0, Integer.MAX_VALUE, false);
    }
}
