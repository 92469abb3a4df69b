package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ChunkStreamer} over the shipped world: chunks near the point (or its look-ahead point) load, far
 * ones unload, one unloaded mid-load has its jobs cancelled, and after close nothing is left: no GPU
 * object, no asset entry (reference counts back to zero), no native texture memory, no parked fiber.
 */
@Timeout(180)
class ChunkStreamerTest extends WithJobSystem {
    private static final ChunkGrid WORLD = ChunkGrid.shippedWorld();
    private static final float LOAD_M = 30f, UNLOAD_M = 40f;

    @Test
    void chunksLoadAroundThePointAndUnloadBehindItLeavingNothing() {
        jobs.bindMainThread();
        CountingUploader gpu = new CountingUploader();
        FaultPlan disk = FaultPlan.builder().latency("*", Duration.ofMillis(5)).build();
        try (AssetManager assets = AssetManager.builder(jobs).faults(disk).uploader(gpu).build()) {
            ChunkStreamer streamer = new ChunkStreamer(new LevelLoader(assets), WORLD, LOAD_M, UNLOAD_M);
            float z = WORLD.centreZM(1);
            Set<String> everResident = new HashSet<>();
            for (float x = -90f; x <= 90f; x += 5f) {
                streamer.update(x, z, x + 10f, z);
                pumpUntilSettled(streamer);
                for (LoadedLevel chunk : streamer.resident()) {
                    everResident.add(chunk.name());
                    float[] o = streamer.origin(chunk);
                    assertTrue(Math.hypot(o[0] - x, o[1] - z) <= UNLOAD_M,
                            chunk.name() + " is resident but farther than the unload radius from x=" + x);
                    assertTrue(chunk.failures().isEmpty(), chunk.failures().toString());
                    assertTrue(chunk.entities().get(0).mesh().gpu().isPresent(), "uploaded before it is resident");
                }
                for (int c = 0; c < WORLD.columns(); c++) {
                    for (int r = 0; r < WORLD.rows(); r++) {
                        double d = Math.hypot(WORLD.centreXM(c) - x, WORLD.centreZM(r) - z);
                        if (d <= LOAD_M) {
                            String name = WORLD.levelName(c, r);
                            assertTrue(streamer.resident().stream().anyMatch(l -> l.name().equals(name)),
                                    name + " is within the load radius of x=" + x + " but not resident");
                        }
                    }
                }
            }
            ChunkStreamer.Stats s = streamer.stats();
            assertTrue(s.chunksLoaded() >= 8, "a 180 m walk across 25 m chunks loads many: " + s);
            assertTrue(s.chunksUnloaded() >= 4, "the chunks behind unload: " + s);
            assertEquals(s.chunksLoaded(), everResident.size(), s.toString());
            assertTrue(s.bytesStreamed() > 0, s.toString());
            assertTrue(gpu.live() > 0, "resident chunks hold GPU objects");

            streamer.close();
            assertEquals(0, streamer.resident().size());
            pumpUntil(() -> gpu.live() == 0 && assets.stats().entries() == 0);
            assertEquals(0, gpu.live(), "every chunk's GPU objects freed: " + gpu.meshesUploaded + " meshes, "
                    + gpu.texturesUploaded + " textures uploaded");
            Fixture.assertNoEntries(assets);
            Fixture.assertNoLiveTextures(assets);
        }
    }

    @Test
    void aChunkUnloadedWhileLoadingHasItsJobsCancelled() {
        jobs.bindMainThread();
        CountingUploader gpu = new CountingUploader();
        // Reads that would take a minute: the loads can only end this soon by being cancelled.
        // The level files read at once, their assets in a minute: each chunk parses, requests its
        // assets and waits on their reads, so an unload finds it holding references mid-load.
        FaultPlan slowDisk = FaultPlan.builder().latency("*.png", Duration.ofSeconds(60))
                .latency("*.obj", Duration.ofSeconds(60)).build();
        try (AssetManager assets = AssetManager.builder(jobs).faults(slowDisk).uploader(gpu).build()) {
            ChunkStreamer streamer = new ChunkStreamer(new LevelLoader(assets), WORLD, LOAD_M, UNLOAD_M);
            float x = WORLD.centreXM(0), z = WORLD.centreZM(0);
            streamer.update(x, z, x, z);
            long started = streamer.stats().chunksRequested();
            assertTrue(started >= 1 && streamer.isStreaming(), streamer.stats().toString());
            pumpUntil(() -> assets.stats().entries() >= 4 * started);   // textures and meshes requested
            assertTrue(assets.stats().entries() >= 4 * started, "the chunks' assets are loading: " + assets.stats());
            Set<AssetId> nearStart = assets.entryIds();
            streamer.update(90f, 90f, 90f, 90f);                 // the far corner: the first chunks unload
            ChunkStreamer.Stats s = streamer.stats();
            assertEquals(started, s.chunksCancelled(), "every chunk near the start was still loading: " + s);
            assertEquals(started, s.chunksUnloaded(), s.toString());
            // Their references are back to zero, mid-load. Only theirs: the corner's chunks start loading
            // now and hold entries of their own (counting every entry passed only while those were slow).
            // (A collision entry gives its mesh back when its cancelled load job ends: poll, not at once.)
            Set<AssetId> stillHeld = new HashSet<>(assets.entryIds());
            stillHeld.retainAll(nearStart);
            Fixture.waitUpTo(Duration.ofSeconds(10)).untilAsserted(() -> {
                stillHeld.retainAll(assets.entryIds());
                assertEquals(Set.of(), stillHeld, "the unloaded chunks' assets are all released");
            });
            streamer.close();                                    // and the corner's loads too
            Fixture.assertNoEntries(assets);
            Fixture.assertNoLiveTextures(assets);
            assertEquals(0, gpu.texturesUploaded + gpu.meshesUploaded, "a cancelled chunk uploads nothing");
            assertEquals(0, streamer.stats().chunksLoaded());
        }
    }

    @Test
    void misuseIsReported() {
        AssetManager assets = AssetManager.builder(jobs).build();
        try (assets) {
            LevelLoader loader = new LevelLoader(assets);
            IllegalArgumentException radii = assertThrows(IllegalArgumentException.class,
                    () -> new ChunkStreamer(loader, WORLD, 50f, 40f));
            assertTrue(radii.getMessage().contains("hysteresis"), radii.getMessage());
            ChunkStreamer streamer = new ChunkStreamer(loader, WORLD, LOAD_M, UNLOAD_M);
            java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
            Thread other = new Thread(() -> {
                try {
                    streamer.update(0, 0, 0, 0);
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            other.start();
            assertDoesNotThrow(() -> other.join(10_000));
            assertInstanceOf(IllegalStateException.class, thrown.get(), "another thread's update must be refused");
            assertTrue(thrown.get().getMessage().contains("one thread"), thrown.get().getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> WORLD.levelName(8, 0));
        }
    }

    /** Runs main-thread jobs (the uploads) until no chunk is loading; bounded by a hang guard. */
    /**
     * A frame that still calls update() after the world was closed (a menu handler closed it mid-frame)
     * started loading the chunks around the point again, and a closed streamer never unloads: 4 chunks (24
     * asset entries) stayed loaded until the manager closed. update() after close() now refuses.
     */
    @Test
    void updateAfterCloseLoadsNothing() {
        try (AssetManager assets = AssetManager.builder(jobs).build()) {
            ChunkStreamer streamer = new ChunkStreamer(new LevelLoader(assets), WORLD, LOAD_M, UNLOAD_M);
            streamer.update(0f, 0f, 0f, 0f);
            streamer.close();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> streamer.update(0f, 0f, 0f, 0f));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
            assertEquals(0, assets.stats().entries(), "nothing requested after close: " + assets.stats());
            assertEquals(0, streamer.resident().size());
        }
    }

    /**
     * A NaN point (a look-ahead from a zero velocity, {@code v / |v|}) made every distance NaN, and a NaN
     * distance is neither within the load radius nor beyond the unload radius: a probe standing at the
     * origin with a NaN look-ahead loaded no chunk in 120 frames, and said nothing. update() now refuses it.
     */
    @Test
    void aNaNPointIsRefusedNotIgnored() {
        try (AssetManager assets = AssetManager.builder(jobs).build()) {
            ChunkStreamer streamer = new ChunkStreamer(new LevelLoader(assets), WORLD, LOAD_M, UNLOAD_M);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> streamer.update(0f, 0f, Float.NaN, Float.NaN));
            assertEquals("ChunkStreamer.update(0.0, 0.0, NaN, NaN): aheadXM is NaN (a look-ahead from a zero"
                    + " velocity?); pass the point itself, or an infinite one, when there is no look-ahead", e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> streamer.update(Float.NaN, 0f, 0f, 0f));
            streamer.update(0f, 0f, Float.POSITIVE_INFINITY, 0f);   // infinitely far: no look-ahead
            assertTrue(streamer.stats().chunksRequested() > 0, "the chunks around the point load: " + streamer.stats());
            streamer.close();
        }
    }

    /**
     * A grid with a NaN (or infinite) origin has NaN centres, and a point at infinity is farther than the
     * unload radius from every chunk: a probe built each and called update() for 120 frames at the world's
     * centre, and no chunk loaded (or every loaded one unloaded), without a word. Both are refused now.
     */
    @Test
    void aGridOrPointThatCouldLoadNothingIsRefused() {
        IllegalArgumentException grid = assertThrows(IllegalArgumentException.class,
                () -> new ChunkGrid("w", 8, 8, 25f, Float.NaN, -100f));
        assertEquals("chunk grid 'w': its corners must be finite metres, got origin (NaN, -100.0) and 8x8 chunks"
                + " of 25.0 m; no chunk of it could ever load", grid.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ChunkGrid("w", 8, 8, 25f, 0f, Float.NEGATIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> new ChunkGrid("w", 8, 8, 1e38f, 3e38f, 0f));  // far edge
        try (AssetManager assets = AssetManager.builder(jobs).build()) {
            ChunkStreamer streamer = new ChunkStreamer(new LevelLoader(assets), WORLD, LOAD_M, UNLOAD_M);
            IllegalArgumentException point = assertThrows(IllegalArgumentException.class,
                    () -> streamer.update(Float.POSITIVE_INFINITY, 0f, 0f, 0f));
            assertTrue(point.getMessage().contains("is infinite, so no chunk would stay loaded"), point.getMessage());
            assertThrows(IllegalArgumentException.class, () -> streamer.update(0f, Float.NEGATIVE_INFINITY, 0f, 0f));
            assertEquals(0, streamer.stats().chunksRequested(), streamer.stats().toString());
            streamer.close();
        }
    }

    private void pumpUntilSettled(ChunkStreamer streamer) {
        pumpUntil(() -> !streamer.isStreaming());
        assertFalse(streamer.isStreaming(), "chunks still loading: " + streamer);
    }

    private void pumpUntil(java.util.function.BooleanSupplier done) {
        Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> {
            jobs.runMainThreadJobs(2_000_000);
            return done.getAsBoolean();
        });
    }
}
