package dev.weft.demo.assets.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.JobSystem;
import dev.weft.demo.assets.AssetKind;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The seed article's example as a level: a texture that takes 100 ms, a mesh that takes 200 ms, and a
 * physics (collision) asset that needs 50 ms of work on the finished mesh. Serially that is 350 ms; as a
 * graph the texture overlaps the mesh, so about 250 ms. Asserted structurally only: physics starts after
 * the mesh has ended, and the whole level is ready in less than 0.9 × the serial sum.
 */
@Timeout(120)
class SeedGraphTest {
    private static final long TEXTURE_MS = 100, MESH_MS = 200, PHYSICS_MS = 50;
    private static final long SERIAL_MS = TEXTURE_MS + MESH_MS + PHYSICS_MS;

    private static final String LEVEL = """
            weft-level 1
            texture albedo textures/albedo.png
            mesh    body   meshes/body.obj
            collision physics from body
            entity thing mesh=body texture=albedo collision=physics 0 0 0
            """;

    private static Map<String, byte[]> files() {
        return Fixture.files("seed/seed.level", LEVEL,
                "seed/textures/albedo.png", Fixture.resource("tiny/textures/decal_16.png"),
                "seed/meshes/body.obj", Fixture.resource("tiny/meshes/post.obj"));
    }

    @Test
    void textureOverlapsMeshAndPhysicsFollowsTheMesh() {
        FaultPlan seed = FaultPlan.builder()
                .latency("seed/textures/*", Duration.ofMillis(TEXTURE_MS))
                .latency("seed/meshes/*", Duration.ofMillis(MESH_MS))
                .cpu("collision:*", Duration.ofMillis(PHYSICS_MS))
                .build();
        try (JobSystem jobs = Fixture.jobs()) {
            warmUp(jobs);
            try (AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(files())).faults(seed).build()) {
                LevelLoad load = new LevelLoader(assets).load("seed");
                Fixture.awaitLoad(load);
                LoadedLevel level = load.level().orElseThrow(() -> new AssertionError(load.failures()));
                assertEquals(List.of(), load.failures());

                AssetTimeline texture = timeline(load, AssetKind.TEXTURE);
                AssetTimeline mesh = timeline(load, AssetKind.MESH);
                AssetTimeline physics = timeline(load, AssetKind.COLLISION);
                double totalMs = load.totalNanos() / 1e6;
                System.out.printf(Locale.ROOT, "seed graph: level ready in %.1f ms (serial sum %d ms, graph ideal %d ms)%n",
                        totalMs, SERIAL_MS, Math.max(TEXTURE_MS, MESH_MS + PHYSICS_MS));
                System.out.printf(Locale.ROOT, "  level file read, parsed and sized: assets queued %.1f ms after the start%n",
                        (Math.min(texture.queuedNanos(), mesh.queuedNanos()) - load.startNanos()) / 1e6);
                System.out.println("  " + texture + "\n  " + mesh + "\n  " + physics);
                System.out.printf(Locale.ROOT, "  physics build starts %.1f ms after the mesh ended%n",
                        (physics.inputNanos() - mesh.endedNanos()) / 1e6);

                assertTrue(physics.inputNanos() >= mesh.endedNanos(), "physics must start after its mesh ended");
                assertTrue(physics.decodedNanos() - physics.inputNanos() >= Duration.ofMillis(PHYSICS_MS).toNanos(),
                        "physics did its 50 ms of work");
                assertTrue(texture.inputNanos() < mesh.inputNanos(), "the texture read overlapped the mesh read");
                assertTrue(totalMs < 0.9 * SERIAL_MS, "level took " + totalMs + " ms, not less than 0.9 × " + SERIAL_MS);
                assertTrue(totalMs >= MESH_MS + PHYSICS_MS, "cannot beat the critical path: " + totalMs);
                assertEquals(1, level.entities().size());
                level.close();
                Fixture.assertNoFiberParked(jobs);
                Fixture.assertNoLiveTextures(assets);
            }
        }
    }

    /** One load without latency, so class loading and stb's first call are not part of the measured figure. */
    private static void warmUp(JobSystem jobs) {
        try (AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(files())).build()) {
            LevelLoad load = new LevelLoader(assets).load("seed");
            Fixture.awaitLoad(load);
            load.unload();
        }
    }

    private static AssetTimeline timeline(LevelLoad load, AssetKind kind) {
        return load.timings().stream().filter(t -> t.id().kind() == kind).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " timing in " + load.timings()));
    }
}
