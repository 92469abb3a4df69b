package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/**
 * The warm-up's line says truthfully why it ended. Its time limit is checked between frames, so one frame
 * slower than the limit (a probe at --size 20000x20000 on software GL: 76 s) ends past it; the line used
 * to say "cut off at 300 frames or 3000 ms" and nothing more.
 */
class WarmUpStopReasonTest {
    @Test
    void aFrameThatRanPastTheTimeLimitIsReportedWithTheRealEnd() {
        assertEquals("cut off at 3000 ms, checked between frames: the last one ended at 76012 ms",
                WarmUp.stopReason(true, 0, 1, 76_012.4));
        assertEquals("cut off at 3000 ms, checked between frames: the last one ended at 3074 ms",
                WarmUp.stopReason(true, 2, 29, 3_074));
    }

    @Test
    void theOtherEndsAreNamed() {
        assertEquals("until the JIT was quiet for 10 frames", WarmUp.stopReason(true, 10, 145, 426));
        assertEquals("cut off at 300 frames", WarmUp.stopReason(true, 3, 300, 2_000));
        assertEquals("fixed count: this JVM does not report JIT time", WarmUp.stopReason(false, 0, 60, 500));
        assertEquals("the window was closed", WarmUp.stopReason(true, 0, 5, 100));
    }
}
