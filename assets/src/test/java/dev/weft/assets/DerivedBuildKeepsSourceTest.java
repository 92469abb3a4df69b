package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.JobSystem;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A derived asset released while its build runs keeps its source alive until the build is done. A dead
 * derived asset's death releases its claim on the source only while its job still waits for the source
 * (AssetEntry.sourceClaim): released during the build, the source would die under it, and a user's
 * {@link DerivedCodec} built from a texture would read pixels whose native memory was freed.
 */
@Timeout(120)
class DerivedBuildKeepsSourceTest {

    @Test
    void aDerivedAssetReleasedDuringItsBuildKeepsItsSourceUntilTheBuildEnds() throws Exception {
        CountDownLatch building = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        DerivedCodec<LoadedMesh> slowCollision = new DerivedCodec<>() {
            private final CollisionCodec inner = new CollisionCodec();

            @Override public AssetKind kind() { return inner.kind(); }
            @Override public AssetId sourceOf(AssetId id) { return inner.sourceOf(id); }
            @Override public Class<LoadedMesh> sourceType() { return inner.sourceType(); }
            @Override public LoadedAsset placeholder(AssetId id) { return inner.placeholder(id); }

            @Override
            public LoadedAsset build(AssetId id, LoadedMesh mesh) {
                building.countDown();
                try {
                    finish.await(Fixture.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return inner.build(id, mesh);
            }
        };
        CodecRegistry codecs = new CodecRegistry()
                .register(FileCodec.mesh(List.of("obj"), ObjParser::parse))
                .register(slowCollision);
        Map<String, byte[]> files = Map.of("m/post.obj", Fixture.resource("tiny/meshes/post.obj"));
        try (JobSystem jobs = JobSystem.builder().name("derived build").workers(2).build();
             AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(files)).codecs(codecs).build()) {
            AssetRef<LoadedCollision> collision = assets.collision("m/post.obj");
            assertTrue(building.await(Fixture.TIMEOUT.toSeconds(), TimeUnit.SECONDS), "the build never started");
            collision.release();                           // dies while its build reads the mesh
            AssetEntry mesh = assets.entryForTests(AssetId.mesh("m/post.obj"));
            boolean meshAlive = mesh != null && !mesh.dead;
            finish.countDown();
            assertTrue(meshAlive, "the mesh died while the released collision was still being built from it");
            Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> assets.loadsRunning() == 0 && assets.stats().entries() == 0);
        }
    }
}
