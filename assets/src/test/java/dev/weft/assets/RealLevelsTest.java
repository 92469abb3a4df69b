package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The generated levels from the assets jar, end to end, headless. */
@Timeout(300)
class RealLevelsTest extends WithJobSystem {
    @Test
    void tinyLoadsEndToEnd() {
        Fixture.RecordingSource source = new Fixture.RecordingSource(AssetSource.classpath());
        try (AssetManager assets = AssetManager.builder(jobs).source(source).build()) {
            LevelLoad load = new LevelLoader(assets).load("tiny");
            Fixture.awaitLoad(load);
            LoadedLevel level = load.level().orElseThrow(() -> new AssertionError(load.failures()));
            assertEquals(List.of(), load.failures());
            assertEquals(3, level.textures().size());
            assertEquals(3, level.meshes().size());
            assertEquals(2, level.collisions().size());
            assertEquals(3, level.entities().size());
            assertEquals(64, level.textures().get("grass").width());
            assertEquals(128, level.meshes().get("ground").triangleCount());
            assertEquals(128, level.collisions().get("ground_col").mesh().triangleCount());
            assertTrue(level.entities().get(1).collisionMesh().isEmpty(), "the ball has no collision");
            assertEquals(8, load.timings().size(), "one timeline per asset: " + load.timings());
            LoadProgress.Snapshot p = load.progress();
            assertTrue(p.complete() && p.bytesDone() == p.bytesTotal() && p.bytesTotal() > 20_000, p.toString());
            source.assertOnlyIoThreads();
            System.out.printf(Locale.ROOT, "tiny: %.1f ms, %d bytes%s%n", load.totalNanos() / 1e6, p.bytesTotal(),
                    Fixture.join(load.timings()));
            level.close();
            Fixture.assertNoLiveTextures(assets);
            assertEquals(0, assets.stats().entries());
        }
    }

    @Test
    void demoLoadsOnce() {
        try (AssetManager assets = AssetManager.builder(jobs).build()) {
            LevelLoad load = new LevelLoader(assets).load("demo");
            Fixture.awaitLoad(load);
            LoadedLevel level = load.level().orElseThrow(() -> new AssertionError(load.failures()));
            assertEquals(List.of(), load.failures());
            assertEquals(7, level.textures().size());
            assertEquals(5, level.meshes().size());
            assertEquals(3, level.collisions().size());
            assertEquals(28, level.entities().size());
            assertEquals(2048, level.textures().get("grass").width());
            assertEquals(100_352, level.collisions().get("terrain_col").mesh().triangleCount());
            LoadProgress.Snapshot p = load.progress();
            assertTrue(p.complete() && p.bytesDone() == p.bytesTotal(), p.toString());
            assertTrue(p.bytesTotal() > 15_000_000, "the demo level is about 17 MB: " + p);
            List<AssetTimeline> slowest = load.timings().stream()
                    .sorted(Comparator.comparingDouble(AssetTimeline::totalMs).reversed()).limit(5).toList();
            System.out.printf(Locale.ROOT, "demo: %.1f ms for %d bytes, %d decode slot(s) on %d workers; slowest:%s%n",
                    load.totalNanos() / 1e6, p.bytesTotal(), assets.maxParallelDecodes(), jobs.workerCount(),
                    Fixture.join(slowest));
            assertEquals(7, assets.stats().liveTextureData());
            level.close();
            Fixture.assertNoLiveTextures(assets);
            assertEquals(7, assets.stats().textureDataFreed());
        }
    }

    @Test
    void allAssetKindsAreTimed() {
        try (AssetManager assets = AssetManager.builder(jobs).build()) {
            LevelLoad load = new LevelLoader(assets).load("tiny");
            Fixture.awaitLoad(load);
            for (AssetKind k : AssetKind.values()) {
                assertTrue(load.timings().stream().anyMatch(t -> t.id().kind() == k && t.endedNanos() >= t.inputNanos()
                        && t.inputNanos() >= t.startedNanos() && t.startedNanos() >= t.queuedNanos()), k + ": " + load.timings());
            }
            load.unload();
        }
    }
}
