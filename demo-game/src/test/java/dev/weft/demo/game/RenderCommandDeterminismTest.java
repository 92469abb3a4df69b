package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.JobSystem;
import dev.weft.demo.game.BoxCollisionWorld.Box;
import dev.weft.demo.game.CollisionWorld.WorldBounds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.joml.Matrix4f;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/**
 * The render-command build is a function of the seed alone: the same merged commands frame after frame
 * whatever the worker count, the grain (so the range split and who steals what) or the pipelining.
 */
class RenderCommandDeterminismTest {
    static final int ENTITIES = 3000;
    static final int FRAMES = 40;
    static final Duration TIMEOUT = Duration.ofMinutes(1);   // hang guard only

    static CollisionWorld world() {
        WorldBounds bounds = new WorldBounds(-20, 0, -20, 20, 30, 20);
        return new BoxCollisionWorld(0f, bounds, List.of(Box.standing(0, 0, 0, 4, 3, 4), Box.standing(8, 0, -6, 2, 6, 2),
                Box.standing(-9, 0, 7, 3, 1, 5)));
    }

    /** The test scene's graph: two agent meshes, three agent textures and one ground prop (mesh 2, texture 3). */
    static FrameGraph graph(JobSystem jobs, Entities e, CollisionWorld world, FrameGraph.Gpu gpu, int grain) {
        FrameGraph.Props props = new FrameGraph.Props(new int[] {2}, new int[] {3},
                new Matrix4f().scale(40f).get(new float[16]), new float[] {-20, 0, -20, 20, 0, 20});
        return new FrameGraph(new FrameGraph.Setup(jobs, e, world,
                new FrameGraph.AgentKinds(new int[] {0, 1}, new float[] {2f, 1f}, new int[] {0, 1, 2}),
                props, 3, 4, gpu, grain, null, 1, null));
    }

    /** Runs frame {@code f} with the camera where {@link CameraPath} puts it at that frame. */
    static FrameGraph.Output frame(FrameGraph g, CollisionWorld world, int f) throws Exception {
        Vector3f eye = new Vector3f();
        Vector3f target = new Vector3f();
        CameraPath.at((f + 1) / 60.0, world.bounds(), eye, target);
        Matrix4f vp = new Matrix4f().setPerspective((float) Math.toRadians(60), 16f / 9f, 0.1f, 200f)
                .lookAt(eye, target, new Vector3f(0, 1, 0));
        return g.submit(new FrameGraph.Input(f, 1, vp, eye, target)).join(TIMEOUT);
    }

    /** Per-frame hashes of the merged commands, plus the last frame's command count. */
    static List<Long> run(int workers, int grain, long seed) throws Exception {
        return run(workers, grain, seed, FrameGraph.Style.PARKED_WAITS);
    }

    static List<Long> run(int workers, int grain, long seed, FrameGraph.Style style) throws Exception {
        CollisionWorld world = world();
        List<Long> hashes = new ArrayList<>();
        try (JobSystem jobs = JobSystem.builder().name("det").workers(workers).build()) {
            FrameGraph g = graph(jobs, Entities.spawn(ENTITIES, seed, world, 2, 3), world, null, grain);
            g.style(style);
            for (int f = 0; f < FRAMES; f++) {
                FrameGraph.Output o = frame(g, world, f);
                hashes.add(o.commands.contentHash());
                if (f == FRAMES - 1) {
                    assertTrue(o.visibleEntities > 0 && o.visibleEntities < ENTITIES,
                            "the camera should see some entities but not all: " + o.visibleEntities);
                    assertEquals(o.visibleEntities + o.visibleProps, o.commands.count);
                    assertSortedByMaterial(o.commands);
                }
            }
            assertEquals((long) FRAMES * ENTITIES, g.entityUpdates());
            assertEquals(FRAMES * 3 * FrameGraph.rangesPerStage(ENTITIES, grain), g.rangesRun());
            assertEquals(FRAMES, g.mergesRun());
        }
        return hashes;
    }

    static void assertSortedByMaterial(CommandBuffer b) {
        for (int i = 1; i < b.count; i++) {
            long prev = (long) b.mesh[i - 1] << 32 | b.texture[i - 1];
            long cur = (long) b.mesh[i] << 32 | b.texture[i];
            assertTrue(prev <= cur, "not sorted by (mesh, texture) at " + i);
            if (prev == cur && b.entity[i - 1] >= 0 && b.entity[i] >= 0) {
                assertTrue(b.entity[i - 1] < b.entity[i], "not stable (entity order) at " + i);
            }
        }
    }

    /** With GPU handles, the frame's DrawList is its merged commands, in order, as meshes and textures. */
    @Test
    void theDrawListIsTheMergedCommandsAsGpuHandles() throws Exception {
        var display = dev.weft.demo.window.Displays.open(dev.weft.demo.window.DisplayConfig.defaults()
                .withPreferred(dev.weft.demo.window.DisplayKind.NONE), notice -> { });
        try (var renderer = dev.weft.demo.render.Renderer.create(display);
             JobSystem jobs = JobSystem.builder().name("draws").workers(2).build()) {
            dev.weft.demo.render.Mesh[] meshes = new dev.weft.demo.render.Mesh[3];
            dev.weft.demo.render.Texture[] textures = new dev.weft.demo.render.Texture[4];
            for (int i = 0; i < meshes.length; i++) {
                meshes[i] = renderer.uploadMesh(dev.weft.assets.ProceduralMeshes.cube(1f + i));
            }
            for (int i = 0; i < textures.length; i++) {
                textures[i] = renderer.uploadTexture(dev.weft.demo.render.ProceduralTextures.checker(8, 2, i, 0xFFFFFF));
            }
            CollisionWorld world = world();
            FrameGraph g = graph(jobs, Entities.spawn(ENTITIES, 7, world, 2, 3), world,
                    new FrameGraph.Gpu(meshes, textures), 256);
            Matrix4f m = new Matrix4f();
            for (int f = 0; f < 5; f++) {
                FrameGraph.Output o = frame(g, world, f);
                CommandBuffer c = o.commands;
                assertTrue(c.count > 0);
                assertEquals(c.count, o.draws.size(), "one draw per merged command");
                for (int i = 0; i < c.count; i++) {
                    assertSame(meshes[c.mesh[i]], o.draws.mesh(i), "mesh of draw " + i);
                    assertSame(textures[c.texture[i]], o.draws.texture(i), "texture of draw " + i);
                    assertEquals(new Matrix4f().set(c.model, i * CommandBuffer.MATRIX_FLOATS), o.draws.model(i, m),
                            "model of draw " + i);
                }
                renderer.beginFrame();
                renderer.drawScene(new dev.weft.demo.render.Camera(), dev.weft.demo.render.DirectionalLight.defaults(),
                        o.draws);
            }
        } finally {
            display.close();
        }
    }

    @Test
    void sameSeedSameCommandsWhateverTheWorkersAndGrain() throws Exception {
        List<Long> reference = run(1, 256, 42);
        assertEquals(reference, run(1, 256, 42), "a second identical run");
        assertEquals(reference, run(2, 256, 42), "2 workers");
        assertEquals(reference, run(4, 64, 42), "4 workers, grain 64");
        assertEquals(reference, run(3, 1000, 42), "3 workers, grain 1000");
        assertNotEquals(reference, run(2, 256, 43), "another seed places the entities elsewhere");
    }

    /** The JobGraph form of the frame runs the same stages in the same order: the same commands. */
    @Test
    void theJobGraphStyleGivesTheSameCommandsAsParkedWaits() throws Exception {
        List<Long> reference = run(2, 256, 42, FrameGraph.Style.PARKED_WAITS);
        assertEquals(reference, run(2, 256, 42, FrameGraph.Style.JOB_GRAPH), "2 workers, job graph");
        assertEquals(reference, run(4, 64, 42, FrameGraph.Style.JOB_GRAPH), "4 workers, grain 64, job graph");
    }
}
