package dev.weft.bench.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The figures of one system's row are the frame times' own: a mean never above the max, never below the min. */
class SystemProfileTest {

    @Test
    void theMeanIsTheFrameTimesMean() {
        long[][] runs = {{21_534_000}, {7_190_000}, {1_000_000, 2_000_000, 3_000_000}, {16_670_001, 999_999, 5}};
        for (long[] times : runs) {
            SystemProfile p = SystemProfile.of("weft", times, 0);
            double exact = java.util.Arrays.stream(times).average().orElseThrow() / 1e6;
            assertEquals(exact, p.meanMs(), 1e-9, java.util.Arrays.toString(times));
            assertTrue(p.meanMs() <= p.maxMs(), "mean " + p.meanMs() + " above max " + p.maxMs());
        }
    }
}
