package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.JobSystem;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The seed article's example as a level: a texture that takes 100 ms, a mesh that takes 200 ms, and a
 * physics (collision) asset that needs 50 ms of work on the finished mesh. Serially that is 350 ms; as a
 * graph the texture overlaps the mesh, so about 250 ms. Asserted structurally only: the texture and mesh
 * reads were in progress at the same time (each read, on its I/O thread, waits until the other one has
 * begun: a serial load never begins the second while the first is unfinished), physics starts after the
 * mesh has ended, and nothing beats the critical path. The figures are printed; "less than 0.9 × the
 * serial sum" is checked only with -Dweft.timing=strict (a quiet machine).
 */
@Timeout(120)
class SeedGraphTest {
    private static final long TEXTURE_MS = 100, MESH_MS = 200, PHYSICS_MS = 50;
    private static final long SERIAL_MS = TEXTURE_MS + MESH_MS + PHYSICS_MS;
    private static final String TEXTURE_FILE = "seed/textures/albedo.png", MESH_FILE = "seed/meshes/body.obj";
    /** How long a read waits for the other to begin; a hang guard for the serial case, never reached otherwise. */
    private static final Duration MEETING_TIMEOUT = Duration.ofSeconds(10);

    private static final String LEVEL = """
            weft-level 1
            texture albedo textures/albedo.png
            mesh    body   meshes/body.obj
            collision physics from body
            entity thing mesh=body texture=albedo collision=physics 0 0 0
            """;

    private static Map<String, byte[]> files() {
        return Fixture.files("seed/seed.level", LEVEL,
                TEXTURE_FILE, Fixture.resource("tiny/textures/decal_16.png"),
                MESH_FILE, Fixture.resource("tiny/meshes/post.obj"));
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
            MeetingSource source = new MeetingSource(AssetSource.inMemory(files()), TEXTURE_FILE, MESH_FILE);
            try (AssetManager assets = AssetManager.builder(jobs).source(source).faults(seed).build()) {
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

                assertEquals(List.of(TEXTURE_FILE, MESH_FILE), source.metOther(),
                        "each read saw the other one begin while it was still in progress (serial: neither did)");
                assertTrue(physics.inputNanos() >= mesh.endedNanos(), "physics must start after its mesh ended");
                assertTrue(physics.decodedNanos() - physics.inputNanos() >= Duration.ofMillis(PHYSICS_MS).toNanos(),
                        "physics did its 50 ms of work");
                if (Boolean.getBoolean("weft.timing.strict") || "strict".equals(System.getProperty("weft.timing"))) {
                    assertTrue(totalMs < 0.9 * SERIAL_MS, "level took " + totalMs + " ms, not less than 0.9 × " + SERIAL_MS);
                }
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

    /**
     * Reads of the given paths each count down one latch and then wait (bounded) until all of them have
     * begun: proof, without a clock, that they were in progress at the same time. The cost in a parallel
     * load: the earlier read returns when the later one begins (the texture's at 200 ms, not 100 ms).
     */
    private static final class MeetingSource extends Fixture.ForwardingSource {
        private final List<String> paths;
        private final CountDownLatch begun;
        private final List<String> metOther = new CopyOnWriteArrayList<>();

        MeetingSource(AssetSource inner, String... paths) {
            super(inner);
            this.paths = List.of(paths);
            this.begun = new CountDownLatch(paths.length);
        }

        @Override
        public byte[] read(String path) throws IOException {
            if (paths.contains(path)) {
                begun.countDown();
                try {
                    if (begun.await(MEETING_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                        metOther.add(path);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the other read", e);
                }
            }
            return inner.read(path);
        }

        /** The paths whose read saw every other one begin, in the order of {@code paths}. */
        List<String> metOther() {
            return paths.stream().filter(metOther::contains).toList();
        }
    }
}
