package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.assets.CollisionMesh;
import dev.weft.demo.game.BoxCollisionWorld.Box;
import dev.weft.demo.game.CollisionWorld.WorldBounds;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The collision worlds' queries, and the simulation's invariants against them over many ticks. */
class CollisionAndSimulationTest {
    static final WorldBounds BOUNDS = new WorldBounds(-10, 0, -10, 10, 20, 10);

    @Test
    void boxWorldGroundIsThePlaneOrTheHighestBoxTopBelow() {
        BoxCollisionWorld w = new BoxCollisionWorld(0f, BOUNDS,
                List.of(Box.standing(0, 0, 0, 2, 1, 2), Box.standing(0, 0, 0, 1, 3, 1)));
        assertEquals(0f, w.groundHeight(5, 5, 10));
        assertEquals(3f, w.groundHeight(0, 0, 10), "the taller box");
        assertEquals(1f, w.groundHeight(0.8f, 0, 10), "only the wide box is under x=0.8");
        assertEquals(1f, w.groundHeight(0, 0, 2.5f), "the taller top is above maxY");
        assertEquals(Float.NEGATIVE_INFINITY, w.groundHeight(0, 0, -1f), "nothing at or below -1");
        assertEquals(Float.NEGATIVE_INFINITY, w.groundHeight(11, 0, 10), "off the world");
        assertTrue(w.overlapsBox(0.9f, 0.5f, -0.1f, 1.5f, 0.6f, 0.1f));
        assertFalse(w.overlapsBox(1.1f, 0.5f, -0.1f, 1.5f, 0.6f, 0.1f));
        assertFalse(w.overlapsBox(-0.1f, 3.1f, -0.1f, 0.1f, 4f, 0.1f), "above the pillar");
    }

    @Test
    void meshWorldAnswersLikeTheBoxWorldForAFloorAndACrate() {
        // A 20 x 20 floor quad at y = 0, and a 2 x 2 x 2 crate (as its 12 triangles) placed at (3, 0, 0).
        CollisionMesh floor = CollisionMesh.build(new float[] {-10, 0, -10, 10, 0, -10, 10, 0, 10, -10, 0, 10},
                new int[] {0, 2, 1, 0, 3, 2});
        float[] p = new float[24];
        for (int i = 0; i < 8; i++) {
            p[i * 3] = (i & 1) == 0 ? -1 : 1;
            p[i * 3 + 1] = (i & 2) == 0 ? 0 : 2;
            p[i * 3 + 2] = (i & 4) == 0 ? -1 : 1;
        }
        int[] cube = {0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3};
        CollisionMesh crate = CollisionMesh.build(p, cube);
        MeshCollisionWorld w = new MeshCollisionWorld(List.of(new MeshCollisionWorld.Placed(floor, 0, 0, 0),
                new MeshCollisionWorld.Placed(crate, 3, 0, 0)), BOUNDS);
        assertEquals(0f, w.groundHeight(-5, 5, 10), 1e-5f);
        assertEquals(2f, w.groundHeight(3, 0.5f, 10), 1e-5f, "the crate's top");
        assertEquals(0f, w.groundHeight(3, 0.5f, 1.5f), 1e-5f, "below the crate's top: the floor");
        assertTrue(w.overlapsBox(3.8f, 0.5f, -0.2f, 4.2f, 0.9f, 0.2f), "into the crate's side");
        assertFalse(w.overlapsBox(4.2f, 0.5f, -0.2f, 4.6f, 0.9f, 0.2f), "beside it, above the floor");
        assertEquals(BOUNDS, w.bounds());
        assertEquals(10f + 10f, new MeshCollisionWorld(List.of(new MeshCollisionWorld.Placed(floor, 0, 0, 0)), null)
                .bounds().maxY() + 10f, 1e-5f, "derived bounds: the meshes' union plus 10 m of sky");
    }

    @Test
    void entitiesStayInBoundsOnTheGroundAndOutOfBoxesForTenSimulatedMinutes() {
        CollisionWorld w = new BoxCollisionWorld(0f, BOUNDS, List.of(Box.standing(0, 0, 0, 3, 2, 3),
                Box.standing(5, 0, 5, 1, 6, 1), Box.standing(-6, 0, 4, 4, 1, 1)));
        Entities e = Entities.spawn(300, 7, w, 2, 2);
        WorldBounds b = w.bounds();
        for (int tick = 0; tick < 36_000; tick++) {
            for (int i = 0; i < e.count; i++) {
                Simulation.tick(e, w, b, i, FrameGraph.TICK_SECONDS);
            }
            if (tick % 600 == 0 || tick == 35_999) {
                for (int i = 0; i < e.count; i++) {
                    float h = e.half[i];
                    String where = "entity " + i + " at tick " + tick + ": " + e.x[i] + ", " + e.y[i] + ", " + e.z[i];
                    assertTrue(e.x[i] - h >= b.minX() - 1e-4f && e.x[i] + h <= b.maxX() + 1e-4f, where);
                    assertTrue(e.z[i] - h >= b.minZ() - 1e-4f && e.z[i] + h <= b.maxZ() + 1e-4f, where);
                    assertTrue(e.y[i] - h >= -1e-4f, "above the ground plane: " + where);
                    float step = Simulation.stepHeight(h);
                    assertFalse(w.overlapsBox(e.x[i] - h, e.y[i] - h + step + 1e-3f, e.z[i] - h,
                            e.x[i] + h, e.y[i] + h, e.z[i] + h), "inside a box: " + where);
                    assertTrue(Float.isFinite(e.vx[i] + e.vy[i] + e.vz[i]), where);
                }
            }
        }
    }
}
