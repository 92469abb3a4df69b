package dev.weft.jcstress;

import dev.weft.Counter;
import java.time.Duration;

/**
 * A timed {@link Counter#await(long, Duration)} classified for jcstress results. A timed wait whose
 * wake-up was lost does not return false: once its park runs out it re-checks the value, finds the
 * target reached, and returns true, late. So the elapsed time is what tells: a decrement that happens
 * within microseconds releases the waiter long before {@link #TIMEOUT}.
 */
final class TimedWait {
    /**
     * Far longer than any wake-up, even on a loaded machine. It was 2 s until a run with four spinning
     * actors on 2 busy CPUs had the decrementing actor descheduled that long (one "timed out" sample,
     * 2026-12-03); a lost wake-up still shows, as LATE, at 10 s a sample.
     */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    static final int RELEASED = 1;       // returned true before its timeout ran out
    static final int LATE = 2;           // returned true only at its timeout: it slept through the wake-up
    static final int TIMED_OUT = 0;      // returned false
    static final int THREW = -1;

    private TimedWait() {
    }

    static int await(Counter counter, long target) {
        long t0 = System.nanoTime();
        try {
            boolean reached = counter.await(target, TIMEOUT);
            if (!reached) {
                return TIMED_OUT;
            }
            return System.nanoTime() - t0 >= TIMEOUT.toNanos() ? LATE : RELEASED;
        } catch (RuntimeException e) {
            return THREW;
        }
    }
}
