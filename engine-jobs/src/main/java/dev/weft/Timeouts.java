package dev.weft;

import java.time.Duration;

/**
 * Durations as nanoseconds, saturated: {@link Duration#toNanos()} throws {@link ArithmeticException} past
 * about 292 years, and a game passing {@code ChronoUnit.FOREVER.getDuration()} or
 * {@code Duration.ofMillis(Long.MAX_VALUE)} to mean "no limit" got that exception from a wait on a counter
 * already at zero, from {@code build()} after its workers had started (they were never stopped), and on a
 * worker whose fiber pool ran dry (the worker died with its jobs).
 */
final class Timeouts {
    private Timeouts() {}

    /** {@code d} in nanoseconds, or {@link Long#MAX_VALUE} / {@link Long#MIN_VALUE} when it does not fit. */
    static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** {@code d} in milliseconds, saturated the same way (for messages). */
    static long saturatedMillis(Duration d) {
        try {
            return d.toMillis();
        } catch (ArithmeticException tooLong) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
