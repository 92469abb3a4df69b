package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The iteration tag of the target benchmarks: a figure, no hang, no thread left behind (not its speed). */
class CrossCoreTest {

    @Test
    void theRoundTripIsAPositiveFigureAndItsPongThreadEnds() {
        long ns = assertTimeoutPreemptively(Duration.ofSeconds(30), CrossCore::roundTripNanos);
        assertTrue(ns > 0, "ns per round trip: " + ns);
        assertFalse(Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("cross-core-pong") && t.isAlive()),
                "the pong thread outlived the measurement");
    }
}
