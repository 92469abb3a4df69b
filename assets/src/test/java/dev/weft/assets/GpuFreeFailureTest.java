package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.JobSystem;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A GPU free that fails reaches the game, although nobody waits for a free. */
@Timeout(60)
class GpuFreeFailureTest {
    private static final String PNG = "lvl/textures/grass.png";
    private static final Map<String, byte[]> FILES = Fixture.files(PNG, Fixture.resource("tiny/textures/grass_64.png"));

    /**
     * The free of an unloaded asset is a main-thread job whose handle nobody joins, so Weft kept its failure
     * on the handle and told no one: a renderer whose free threw ("GL context lost", a bug in its own
     * teardown) leaked the GPU object without a word (a probe printed nothing at all). It now goes to the
     * job system's onUncaughtFailure handler, naming the asset.
     */
    @Test
    void aFailedGpuFreeReachesTheUncaughtFailureHandler() {
        List<String> reported = new CopyOnWriteArrayList<>();
        try (JobSystem jobs = JobSystem.builder().name("free-test").workers(2)
                .onUncaughtFailure((job, t) -> reported.add(job + ": " + t.getMessage())).build()) {
            jobs.bindMainThread();
            int[] freed = {0};
            GpuUploader renderer = new GpuUploader() {
                @Override
                public Object uploadTexture(TextureSource pixels) {
                    return new Object();
                }

                @Override
                public Object uploadMesh(MeshSource mesh) {
                    return new Object();
                }

                @Override
                public void free(Object handle) {
                    freed[0]++;
                    throw new IllegalStateException("GL context lost");
                }
            };
            try (AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(FILES)).uploader(renderer).build()) {
                AssetRef<LoadedTexture> grass = assets.texture(PNG);
                pumpUntil(jobs, grass::isDone);
                grass.release();
                pumpUntil(jobs, () -> freed[0] == 1);
                Fixture.waitUpTo(java.time.Duration.ofSeconds(10)).untilAsserted(
                        () -> assertEquals(1, reported.size(), "the failed free was reported: " + reported));
            }
            jobs.runMainThreadJobs(Long.MAX_VALUE);
            assertEquals(1, reported.size(), "one report: " + reported);
            String r = reported.get(0);
            assertTrue(r.contains("texture:" + PNG) && r.contains("GL context lost"), r);
        }
    }

    private static void pumpUntil(JobSystem jobs, BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not done within 30 s");
            jobs.runMainThreadJobs(TimeUnit.MILLISECONDS.toNanos(1));
            Thread.onSpinWait();
        }
    }
}
