package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.Jobs;
import dev.weft.demo.DemoMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A frame whose job graph never finishes ends the run with exit status 3 and a line naming the stuck
 * stage, instead of hanging. The hang is real (a range spins until the watchdog's shutdownNow() asks it
 * to stop, or the test ends), so the test does not depend on timing: the watchdog only has to notice
 * something that never ends. Letting the job stop also lets the job system terminate and release the
 * test thread as its main thread, so later tests on this thread can bind it again.
 */
class WatchdogTest {
    @Test
    void hungStageIsNamedAndTheRunGivesUp() {
        AtomicBoolean release = new AtomicBoolean();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        GameConfig cfg = GameConfig.builder().loading(DemoMain::pipelineLoading)
                .headless(true).frames(50).entities(100).workers(2).level("tiny")
                .assetLatency(Duration.ZERO).watchdog(Duration.ofSeconds(2)).out(out)
                .stageHook((stage, frame, start, end) -> {
                    if (stage == FrameStage.CULL && frame == 2 && start == 0) {
                        while (!release.get() && !Jobs.isCancelled()) {   // shutdownNow() asks it to stop
                            Thread.onSpinWait();
                        }
                    }
                })
                .build();
        try {
            GameException e = assertThrows(GameException.class, () -> Game.run(cfg));
            String log = bytes.toString(StandardCharsets.UTF_8);
            assertEquals(Game.EXIT_WATCHDOG, e.exitCode(), log);
            assertTrue(e.getMessage().contains("frame 2's job graph has not finished"), e.getMessage());
            assertTrue(e.getMessage().contains("stuck in stage 'cull'"), e.getMessage());
            assertTrue(e.getMessage().contains("counter 'cull' = 1"), e.getMessage());
            assertTrue(log.contains("weft-demo: watchdog: "), log);
            assertFalse(log.contains("did not stop"), "the spinning range honours cancellation: " + log);
        } finally {
            release.set(true);                            // let the spinning range end so its worker can stop
        }
    }

    @Test
    void aThrowingStageFailsTheRunWithStatus1AndTheCause() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GameConfig cfg = GameConfig.builder().loading(DemoMain::pipelineLoading)
                .headless(true).frames(20).entities(500).workers(2).level("tiny")
                .assetLatency(Duration.ZERO).out(new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .stageHook((stage, frame, start, end) -> {
                    if (stage == FrameStage.BUILD && frame == 3) {
                        throw new IllegalStateException("boom in build");
                    }
                })
                .build();
        GameException e = assertThrows(GameException.class, () -> Game.run(cfg));
        assertEquals(Game.EXIT_FAILED, e.exitCode(), bytes.toString(StandardCharsets.UTF_8));
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        assertEquals("boom in build", root.getMessage(), "the range's own exception is the root cause");
    }
}
