package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.JobSystem;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A collision released while the mesh it is built from (held by nobody else) waits for its GPU upload: the
 * mesh dies with it, and its upload never runs. The collision job's join ran the mesh's load job inline
 * (one worker: always), and a cancel of the collision's group does not end the wait of a job of another
 * group run inline, so the collision held its claim on the mesh until the upload had run on the main
 * thread (79 of 100 rounds in a probe on two workers; the README's known limit). One worker here, so the
 * mesh job always runs inline.
 */
@Timeout(120)
class ReleasedCollisionUploadTest {

    @Test
    void aCollisionReleasedWhileItsMeshWaitsForItsUploadLetsTheMeshDieUnuploaded() {
        Map<String, byte[]> files = Map.of("m/post.obj", Fixture.resource("tiny/meshes/post.obj"));
        CountingUploader gpu = new CountingUploader();
        try (JobSystem jobs = JobSystem.builder().name("released collision").workers(1).build()) {
            jobs.bindMainThread();
            try (AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(files)).uploader(gpu).build()) {
                for (int round = 0; round < 20; round++) {
                    AssetRef<LoadedCollision> collision = assets.collision("m/post.obj");
                    AssetId meshId = AssetId.mesh("m/post.obj");
                    Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> {   // decoded: its upload is (about to be) queued
                        AssetEntry mesh = assets.entryForTests(meshId);
                        return mesh != null && mesh.decodedNanos != 0;
                    });
                    collision.release();
                    Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> {
                        jobs.runMainThreadJobs(1_000_000);
                        return assets.loadsRunning() == 0 && assets.stats().entries() == 0;
                    });
                    assertEquals(0, gpu.meshesUploaded, "round " + round + ": the released collision's mesh was uploaded");
                }
            }
            jobs.runMainThreadJobs(Long.MAX_VALUE / 4);
            assertEquals(0, gpu.live());
        }
    }
}
