package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.JobSystem;
import dev.weft.demo.game.LevelLoading.Progress;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The stand-in loader keeps the {@link LevelLoading} contract the real loader will implement. */
class ProceduralLevelLoadingTest {
    static final Duration TIMEOUT = Duration.ofMinutes(1);   // hang guard only

    JobSystem jobs;

    @BeforeEach
    void start() {
        jobs = JobSystem.builder().name("load-test").workers(2).build();
    }

    @AfterEach
    void stop() {
        jobs.close();
    }

    @Test
    void loadsTinyWithProgressTimingsAndALevel() {
        LevelLoading.Handle h = new ProceduralLevelLoading(jobs, Duration.ofMillis(2)).start("tiny");
        assertEquals("tiny", h.levelName());
        double last = 0;
        while (!h.awaitDone(Duration.ofMillis(1))) {
            Progress p = h.progress();
            assertTrue(p.fraction() >= last, "progress went backwards: " + p);
            assertTrue(p.assetsDone() <= p.assetsTotal() && p.bytesDone() <= p.bytesTotal(), p.toString());
            last = p.fraction();
        }
        assertTrue(h.awaitDone(TIMEOUT));
        Progress p = h.progress();
        assertEquals(1.0, p.fraction(), p.toString());
        assertEquals(p.assetsTotal(), p.assetsDone());
        assertEquals(p.bytesTotal(), p.bytesDone());
        assertTrue(p.bytesTotal() > 0);
        assertEquals(p.assetsTotal(), h.timings().size(), "one timing per asset, the collision world included");
        for (LevelLoading.AssetTiming t : h.timings()) {
            assertTrue(t.ioNanos() >= 0 && t.cpuNanos() >= 0 && t.endNanos() >= t.startNanos(), t.toString());
        }
        assertEquals(Set.of(), Set.copyOf(h.failures()));
        Level level = h.level().orElseThrow();
        assertEquals("tiny", level.name());
        assertFalse(level.props().isEmpty());
        assertTrue(level.meshes().containsKey("ground") && level.textures().containsKey("grass"), level.toString());
        assertTrue(level.collision() instanceof BoxCollisionWorld b && b.boxCount() == 3, level.collision().toString());
        level.close();
        level.close();                                    // idempotent
    }

    @Test
    void unknownLevelEndsAtOnceWithAFailureAndNoLevel() {
        LevelLoading.Handle h = new ProceduralLevelLoading(jobs, Duration.ZERO).start("atlantis");
        assertTrue(h.isDone());
        assertTrue(h.level().isEmpty());
        assertEquals(1, h.failures().size());
        assertEquals("atlantis", h.failures().get(0).asset());
        assertTrue(h.failures().get(0).message().contains("demo, tiny"), h.failures().toString());
    }

    @Test
    void aFailedAssetGetsAPlaceholderAndIsReported() {
        LevelLoading.Handle h = new ProceduralLevelLoading(jobs, Duration.ZERO, Set.of("wood")).start("tiny");
        assertTrue(h.awaitDone(TIMEOUT));
        Level level = h.level().orElseThrow(() -> new AssertionError("placeholders should keep it loadable"));
        assertTrue(level.textures().containsKey("wood"));
        assertEquals(Set.of("wood"), h.failures().stream().map(LevelLoading.AssetFailure::asset).collect(Collectors.toSet()));
        assertTrue(h.failures().get(0).message().contains("injected failure"), h.failures().toString());
        assertEquals(1.0, h.progress().fraction(), "a failed asset still counts as done");
    }

    @Test
    void cancelEndsTheLoadWithoutALevel() {
        LevelLoading.Handle h = new ProceduralLevelLoading(jobs, Duration.ofMillis(200)).start("demo");
        h.cancel();
        assertTrue(h.awaitDone(TIMEOUT));
        assertTrue(h.level().isEmpty());
        assertTrue(h.failures().stream().anyMatch(f -> f.message().equals("cancelled")), h.failures().toString());
    }

    @Test
    void progressFractionWeighsBytesAndAssets() {
        assertEquals(0.0, new Progress(0, 0, 0, 0).fraction());
        assertEquals(0.5, new Progress(0, 0, 1, 2).fraction());
        assertEquals(0.5, new Progress(50, 100, 0, 0).fraction());
        assertEquals(0.75, new Progress(100, 100, 1, 2).fraction(), "bytes all done, one zero-byte asset left");
        assertEquals(1.0, new Progress(100, 100, 2, 2).fraction());
    }
}
