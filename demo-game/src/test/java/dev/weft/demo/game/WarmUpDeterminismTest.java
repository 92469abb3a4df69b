package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.demo.DemoMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Warm-up runs the frame graph on a throwaway copy of the entities, so the run's deterministic results
 * are the same with it and without it: sim ticks, entity updates, ranges, mean visible entities and the
 * last frame's merged draw commands (a hash of every visible entity's mesh, texture and model matrix).
 * Headless runs use the lockstep clock, so these are a function of the seed and the frame count.
 */
class WarmUpDeterminismTest {
    static final int FRAMES = 90;
    static final int ENTITIES = 2000;

    @ParameterizedTest(name = "pipeline={0}")
    @ValueSource(booleans = {false, true})
    void warmUpOnAndOffGiveTheSameDeterministicSummary(boolean pipeline) throws GameException {
        RunSummary on = run(true, pipeline);
        RunSummary off = run(false, pipeline);
        assertTrue(on.extras().warmUp().on() && on.extras().warmUp().frames() >= WarmUp.MIN_FRAMES, on.toJson());
        assertFalse(off.extras().warmUp().on(), off.toJson());
        assertEquals(0, off.extras().warmUp().frames(), off.toJson());
        assertEquals(deterministic(off), deterministic(on), "warm-up on vs off:\n" + on.toJson() + "\n" + off.toJson());
        assertNotEquals(0L, on.extras().lastFrameCommandsHash(), "the last frame drew something");
    }

    /**
     * draw_calls covers gameplay frames only, as every other figure does: the warm-up's and the loading
     * screen's draws are not in it (they were: 90 frames reported the draws of ~250). Streaming is off
     * because when a chunk arrives, and so is drawn, depends on the machine.
     */
    @Test
    void drawCallsCountGameplayFramesOnly() throws GameException {
        RunSummary on = run(true, false, false);
        RunSummary off = run(false, false, false);
        assertEquals(off.drawCalls(), on.drawCalls(), "warm-up on vs off:\n" + on.toJson() + "\n" + off.toJson());
        assertTrue(on.drawCalls() >= FRAMES, "each frame draws at least the frame-time graph: " + on.toJson());
    }

    /** The summary values a seed fixes, whatever the machine's speed. */
    static List<Object> deterministic(RunSummary s) {
        return List.of(s.frames(), s.simTicks(), s.entityUpdates(), s.rangesRun(), s.rangesExpected(), s.meanVisible(),
                Long.toHexString(s.extras().lastFrameCommandsHash()));
    }

    static RunSummary run(boolean warmUp, boolean pipeline) throws GameException {
        return run(warmUp, pipeline, true);
    }

    static RunSummary run(boolean warmUp, boolean pipeline, boolean streaming) throws GameException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        return Game.run(GameConfig.builder().loading(DemoMain::pipelineLoading).headless(true).frames(FRAMES)
                .entities(ENTITIES).workers(2).level("tiny").seed(5).warmUp(warmUp).pipeline(pipeline)
                .assetLatency(Duration.ZERO).streaming(streaming).out(new PrintStream(bytes, true, StandardCharsets.UTF_8)).build());
    }
}
