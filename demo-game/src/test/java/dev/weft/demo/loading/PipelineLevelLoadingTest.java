package dev.weft.demo.loading;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.JobSystem;
import dev.weft.assets.AssetManager;
import dev.weft.assets.FaultPlan;
import dev.weft.assets.GpuUploader;
import dev.weft.assets.MeshSource;
import dev.weft.assets.TextureSource;
import dev.weft.demo.game.Level;
import dev.weft.demo.game.LevelLoading;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The game's {@link LevelLoading} contract on the real loader. */
@Timeout(120)
class PipelineLevelLoadingTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private JobSystem jobs;

    @BeforeEach
    void startJobSystem() {
        jobs = JobSystem.builder().name("pipeline-loading-test").workers(2).build();
    }

    @AfterEach
    void stopJobSystem() {
        jobs.close();
    }

    /** The game's interface on the real loader: a Level with CPU data, a mesh collision world, and Level.close() frees. */
    @Test
    void servesTheGame() {
        try (AssetManager assets = AssetManager.builder(jobs).build()) {
            LevelLoading loading = new PipelineLevelLoading(assets);
            LevelLoading.Handle handle = loading.start("tiny");
            assertTrue(handle.awaitDone(TIMEOUT));
            Level level = handle.level().orElseThrow(() -> new AssertionError(handle.failures()));
            assertEquals(List.of(), handle.failures());
            assertEquals(3, level.props().size());
            assertEquals(3, level.meshes().size());
            assertEquals(3, level.textures().size());
            assertEquals(64 * 64 * 4, level.textures().get("grass").rgba().remaining());
            float ground = level.collision().groundHeight(0.5f, 0.5f, 5f);
            assertTrue(Float.isFinite(ground), "the ground BVH is under the origin: " + ground);
            assertEquals(8, handle.timings().size());
            assertTrue(handle.timings().stream().allMatch(t -> t.endNanos() >= t.startNanos() && t.startNanos() >= 0));
            LevelLoading.Progress p = handle.progress();
            assertEquals(1.0, p.fraction());
            assertEquals(8, p.assetsTotal());
            level.close();
            org.awaitility.Awaitility.await().atMost(TIMEOUT).pollInterval(java.time.Duration.ofMillis(1))   // frees run on workers
                    .untilAsserted(() -> assertEquals(0, assets.stats().liveTextureData(),
                            "pixels freed by Level.close(): " + assets.stats()));

            LevelLoading.Handle missing = loading.start("no_such_level");
            assertTrue(missing.awaitDone(TIMEOUT));
            assertTrue(missing.level().isEmpty());
            assertTrue(missing.failures().get(0).message().startsWith("weft/levels/no_such_level/no_such_level.level: cannot read"),
                    missing.failures().toString());

        }
        try (AssetManager slow = AssetManager.builder(jobs)
                .faults(FaultPlan.builder().latency("*", Duration.ofSeconds(3)).build()).build()) {
            LevelLoading.Handle cancelled = new PipelineLevelLoading(slow).start("tiny");
            cancelled.cancel();
            assertTrue(cancelled.awaitDone(Duration.ofSeconds(10)));
            assertTrue(cancelled.level().isEmpty());
            assertFalse(cancelled.failures().isEmpty());
        }
    }

    @Test
    void refusesAManagerThatUploadsItself() {
        GpuUploader gpu = new GpuUploader() {   // never called: the constructor refuses first
            @Override public Object uploadTexture(TextureSource pixels) { throw new AssertionError(); }
            @Override public Object uploadMesh(MeshSource mesh) { throw new AssertionError(); }
            @Override public void free(Object handle) { throw new AssertionError(); }
        };
        try (AssetManager assets = AssetManager.builder(jobs).uploader(gpu).build()) {
            assertThrows(IllegalArgumentException.class, () -> new PipelineLevelLoading(assets));
        }
    }
}
