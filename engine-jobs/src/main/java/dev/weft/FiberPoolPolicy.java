package dev.weft;

import java.time.Duration;

/**
 * How many fibers a job system may make. A fiber runs job after job; a new one is needed only while
 * others are parked in waits, so the pool's size is the number of jobs waiting at once plus one per
 * worker.
 *
 * <p>{@link #growable()} (the default) makes fibers as needed and keeps up to about a thousand idle ones
 * for reuse (more than a game's steady state needs; the rest of a burst of parked jobs end when their
 * jobs do, so memory and the watchdog's rounds come back down). {@link
 * #bounded(int, Duration)} never has more than {@code maxFibers}: when all are parked in waits, workers
 * stop starting new jobs and only resume parked fibers. If that lasts {@code exhaustionTimeout} with new
 * jobs waiting, the worker fails those jobs one at a time with {@link FiberPoolExhaustedException},
 * whose message says how to size the pool. Their counters complete, so their waiters wake with the
 * failure; nothing hangs silently. The worker cannot tell a deadlock by exhaustion (every fiber waits on
 * work that cannot start) from fibers parked in long I/O or other slow waits: both fail new jobs once the
 * timeout passes, so give a bounded pool room for every wait the game has at once, and a timeout longer
 * than its slowest wait. While the pool is dry, idle workers poll it every 0.1 ms (about a tenth of a
 * core each, measured), so a long timeout also costs CPU.
 *
 * @param maxFibers          upper bound on live fibers ({@link Integer#MAX_VALUE} when growable)
 * @param exhaustionTimeout  how long a worker tolerates a dry pool before failing waiting jobs
 */
public record FiberPoolPolicy(int maxFibers, Duration exhaustionTimeout) {
    /**
     * Checks the bounds.
     *
     * @throws IllegalArgumentException if {@code maxFibers} is below 1 or {@code exhaustionTimeout} negative
     */
    public FiberPoolPolicy {
        if (maxFibers < 1) {
            throw new IllegalArgumentException("maxFibers must be >= 1, got " + maxFibers);
        }
        if (exhaustionTimeout == null) {
            throw new NullPointerException("exhaustionTimeout is null: pass how long a worker tolerates a dry"
                    + " pool before failing waiting jobs, e.g. Duration.ofSeconds(1) (ChronoUnit.FOREVER's"
                    + " duration for never)");
        }
        if (exhaustionTimeout.isNegative()) {
            throw new IllegalArgumentException("exhaustionTimeout must not be negative");
        }
    }

    /**
     * Makes fibers as needed (the default).
     *
     * @return an unbounded policy, with a one-second exhaustion timeout that never applies
     */
    public static FiberPoolPolicy growable() {
        return new FiberPoolPolicy(Integer.MAX_VALUE, Duration.ofSeconds(1));
    }

    /**
     * At most {@code maxFibers} fibers; a dry pool fails waiting jobs after {@code exhaustionTimeout}.
     *
     * @return a bounded policy
     */
    public static FiberPoolPolicy bounded(int maxFibers, Duration exhaustionTimeout) {
        return new FiberPoolPolicy(maxFibers, exhaustionTimeout);
    }

    /**
     * At most {@code maxFibers} fibers, failing waiting jobs after one second of exhaustion.
     *
     * @param maxFibers the most fibers that may exist at once; 1 or more
     * @return a bounded policy
     */
    public static FiberPoolPolicy bounded(int maxFibers) {
        return bounded(maxFibers, Duration.ofSeconds(1));
    }

    boolean isBounded() {
        return maxFibers != Integer.MAX_VALUE;
    }
}
