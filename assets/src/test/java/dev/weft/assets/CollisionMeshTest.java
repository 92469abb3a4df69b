package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CollisionMeshTest {
    private static final long SEED = 42;

    @Test
    void raycastMatchesBruteForceOnTheDemoRock() {
        MeshData rock = mesh("rock");
        assertRaysMatchBruteForce(rock, CollisionMesh.build(rock), 3000);
    }

    @Test
    void raycastMatchesBruteForceOnTheDemoTerrain() {
        MeshData terrain = mesh("terrain");
        CollisionMesh collision = CollisionMesh.build(terrain);
        assertTrue(collision.depth() < 40, "depth " + collision.depth() + " for " + collision.triangleCount() + " triangles");
        assertRaysMatchBruteForce(terrain, collision, 300);
    }

    @Test
    void raycastMatchesBruteForceOnRandomTriangleSoup() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int round = 0; round < 5; round++) {
            int triangles = 1 + random.nextInt(2000);
            float[] positions = new float[triangles * 9];
            int[] indices = IntStream.range(0, triangles * 3).toArray();
            for (int t = 0; t < triangles; t++) {
                float cx = (float) random.nextDouble(-20, 20), cy = (float) random.nextDouble(-20, 20);
                float cz = (float) random.nextDouble(-20, 20), size = (float) random.nextDouble(0.01, 4);
                for (int k = 0; k < 9; k++) {
                    float centre = k % 3 == 0 ? cx : k % 3 == 1 ? cy : cz;
                    positions[t * 9 + k] = centre + (float) random.nextDouble(-size, size);
                }
            }
            MeshData asMesh = MeshDataForTests.of(positions, indices);
            assertRaysMatchBruteForce(asMesh, CollisionMesh.build(positions, indices), 1000);
            assertBoxesMatchBruteForce(asMesh, CollisionMesh.build(positions, indices), 300);
        }
    }

    @Test
    void boxQueriesMatchBruteForceOnTheDemoMeshes() {
        for (String name : new String[] {"rock", "pillar", "terrain"}) {
            MeshData mesh = mesh(name);
            assertBoxesMatchBruteForce(mesh, CollisionMesh.build(mesh), name.equals("terrain") ? 100 : 500);
        }
    }

    @Test
    void boundsAreTheMeshBoundsAndTheTreeIsComplete() {
        for (String name : new String[] {"rock", "torus", "pillar"}) {
            MeshData mesh = mesh(name);
            CollisionMesh collision = CollisionMesh.build(mesh);
            assertEquals(mesh.bounds(), collision.bounds(), name);
            assertEquals(mesh.triangleCount(), collision.triangleCount());
            assertEquals(1, collision.nodeCount() % 2, "a binary tree has 2 × leaves - 1 nodes");
            Aabb everything = collision.bounds();
            assertArrayEquals(IntStream.range(0, mesh.triangleCount()).toArray(), collision.trianglesOverlapping(everything));
        }
    }

    @Test
    void singleTriangleKnownAnswers() {
        // The triangle (0,0,0) (1,0,0) (0,0,1) lies in the y = 0 plane.
        CollisionMesh one = CollisionMesh.build(new float[] {0, 0, 0, 1, 0, 0, 0, 0, 1}, new int[] {0, 1, 2});
        assertEquals(Optional.of(new RayHit(2, 0)), one.raycast(0.25f, 2, 0.25f, 0, -1, 0, 10));
        assertEquals(Optional.of(new RayHit(1, 0)), one.raycast(0.25f, -2, 0.25f, 0, 2, 0, 10), "back face, unnormalised direction");
        assertEquals(Optional.empty(), one.raycast(0.25f, 2, 0.25f, 0, -1, 0, 1.5f), "beyond maxT");
        assertEquals(Optional.empty(), one.raycast(0.9f, 2, 0.9f, 0, -1, 0, 10), "outside the hypotenuse");
        assertEquals(Optional.empty(), one.raycast(0.25f, 2, 0.25f, 0, 1, 0, 10), "pointing away");
        assertEquals(Optional.empty(), one.raycast(-1, 0.5f, 0.25f, 1, 0, 0, 10), "parallel above the plane");
        // Origin on the bounds' x = 0 face with a -0 x direction: the slab test must not reject it.
        assertEquals(Optional.of(new RayHit(2, 0)), one.raycast(0, 2, 0.25f, -0f, -1, 0, 10), "along the x = 0 edge");
        assertTrue(one.overlaps(Aabb.around(0.25f, 0, 0.25f, 0.01f, 0.01f, 0.01f)));
        assertFalse(one.overlaps(Aabb.around(0.25f, 0.5f, 0.25f, 0.1f, 0.1f, 0.1f)), "above the plane");
        assertFalse(one.overlaps(Aabb.around(0.8f, 0, 0.8f, 0.05f, 0.05f, 0.05f)), "inside the bounds, past the hypotenuse");
        assertThrows(IllegalArgumentException.class, () -> one.raycast(0, 0, 0, 0, 0, 0, 1));
    }

    @Test
    void bigTriangleThroughSmallBoxOverlapsWithNoCornerInside() {
        CollisionMesh big = CollisionMesh.build(new float[] {-100, 0, -100, 100, 0, -100, 0, 0, 100}, new int[] {0, 1, 2});
        assertTrue(big.overlaps(Aabb.around(0, 0, 0, 0.5f, 0.5f, 0.5f)));
        assertArrayEquals(new int[] {0}, big.trianglesOverlapping(Aabb.around(0, 0.49f, 0, 0.5f, 0.5f, 0.5f)));
        assertFalse(big.overlaps(Aabb.around(0, 0.51f, 0, 0.5f, 0.5f, 0.5f)));
    }

    @Test
    void rawInputIsValidated() {
        assertThrows(IllegalArgumentException.class, () -> CollisionMesh.build(new float[9], new int[0]));
        assertThrows(IllegalArgumentException.class, () -> CollisionMesh.build(new float[9], new int[] {0, 1, 3}));
        assertThrows(IllegalArgumentException.class,
                () -> CollisionMesh.build(new float[] {0, 0, 0, 1, Float.NaN, 0, 0, 0, 1}, new int[] {0, 1, 2}));
    }

    @Test
    void degenerateInputStillBuildsAndAnswers() {
        // 1000 copies of one triangle: every centroid coincides, so no plane can split them.
        int copies = 1000;
        float[] positions = {0, 0, 0, 1, 0, 0, 0, 0, 1};
        int[] indices = new int[copies * 3];
        for (int i = 0; i < indices.length; i++) {
            indices[i] = i % 3;
        }
        CollisionMesh stack = CollisionMesh.build(positions, indices);
        assertTrue(stack.raycast(0.2f, 1, 0.2f, 0, -1, 0, 5).isPresent());
        assertEquals(copies, stack.trianglesOverlapping(stack.bounds()).length);
    }

    private static MeshData mesh(String name) {
        return ObjParser.parse(name + ".obj", TestResources.bytes("weft/levels/demo/meshes/" + name + ".obj"));
    }

    /** Half the rays aim at a random triangle's centroid (mostly hits), half are random (mostly misses). */
    private static void assertRaysMatchBruteForce(MeshData mesh, CollisionMesh collision, int rays) {
        float[] triangles = triangles(mesh);
        Aabb b = mesh.bounds();
        SplittableRandom random = new SplittableRandom(SEED);
        int hits = 0;
        for (int r = 0; r < rays; r++) {
            float ox = lerp(random, b.minX(), b.maxX()), oy = lerp(random, b.minY(), b.maxY()), oz = lerp(random, b.minZ(), b.maxZ());
            float dx, dy, dz;
            if (r % 2 == 0) {
                int t = random.nextInt(triangles.length / 9) * 9;
                dx = (triangles[t] + triangles[t + 3] + triangles[t + 6]) / 3 - ox;
                dy = (triangles[t + 1] + triangles[t + 4] + triangles[t + 7]) / 3 - oy;
                dz = (triangles[t + 2] + triangles[t + 5] + triangles[t + 8]) / 3 - oz;
            } else {
                dx = (float) random.nextGaussian();
                dy = (float) random.nextGaussian();
                dz = (float) random.nextGaussian();
            }
            if (dx == 0 && dy == 0 && dz == 0) {
                continue;
            }
            float maxT = r % 3 == 0 ? 0.5f : Float.POSITIVE_INFINITY;
            Optional<RayHit> expected = bruteForce(triangles, ox, oy, oz, dx, dy, dz, maxT);
            Optional<RayHit> actual = collision.raycast(ox, oy, oz, dx, dy, dz, maxT);
            String ray = "ray " + r + " from " + ox + "," + oy + "," + oz + " along " + dx + "," + dy + "," + dz;
            assertEquals(expected.isPresent(), actual.isPresent(), ray);
            float t = collision.raycastT(ox, oy, oz, dx, dy, dz, maxT);
            assertEquals(expected.isPresent() ? expected.get().t() : Float.NaN, t, 0f, ray + " (raycastT)");
            if (expected.isPresent()) {
                hits++;
                // Equal t may come from two triangles sharing the edge the ray crosses; either is right.
                assertEquals(expected.get().t(), actual.get().t(), 0f, ray);
                int got = actual.get().triangle();
                float tOfGot = TriangleTests.ray(triangles, got * 9, ox, oy, oz, dx, dy, dz, maxT);
                assertEquals(expected.get().t(), tOfGot, 0f, ray + ": reported triangle is not hit at t");
            }
        }
        assertTrue(hits > rays / 5, "only " + hits + " of " + rays + " rays hit; the test would prove little");
    }

    private static void assertBoxesMatchBruteForce(MeshData mesh, CollisionMesh collision, int boxes) {
        float[] triangles = triangles(mesh);
        Aabb b = mesh.bounds();
        float scale = Math.max(b.maxX() - b.minX(), Math.max(b.maxY() - b.minY(), b.maxZ() - b.minZ()));
        SplittableRandom random = new SplittableRandom(SEED + 1);
        for (int i = 0; i < boxes; i++) {
            float half = (float) (scale * random.nextDouble(0.001, 0.2));
            Aabb box = Aabb.around(lerp(random, b.minX(), b.maxX()), lerp(random, b.minY(), b.maxY()),
                    lerp(random, b.minZ(), b.maxZ()), half, (float) (half * random.nextDouble(0.2, 2)), half);
            int[] expected = IntStream.range(0, triangles.length / 9)
                    .filter(t -> TriangleTests.overlapsBox(triangles, t * 9, box)).toArray();
            assertArrayEquals(expected, collision.trianglesOverlapping(box), box.toString());
            assertEquals(expected.length > 0, collision.overlaps(box), box.toString());
        }
    }

    private static Optional<RayHit> bruteForce(float[] triangles, float ox, float oy, float oz, float dx, float dy, float dz,
                                               float maxT) {
        RayHit best = null;
        for (int t = 0; t < triangles.length / 9; t++) {
            float hit = TriangleTests.ray(triangles, t * 9, ox, oy, oz, dx, dy, dz, maxT);
            if (!Float.isNaN(hit) && (best == null || hit < best.t())) {
                best = new RayHit(hit, t);
            }
        }
        return Optional.ofNullable(best);
    }

    /** The mesh's triangles as 9 floats each, in index order: the brute-force side's own copy. */
    private static float[] triangles(MeshData mesh) {
        FloatBuffer vertices = mesh.vertices();
        IntBuffer indices = mesh.indices();
        float[] out = new float[indices.limit() * 3];
        for (int i = 0; i < indices.limit(); i++) {
            for (int k = 0; k < 3; k++) {
                out[i * 3 + k] = vertices.get(indices.get(i) * MeshData.FLOATS_PER_VERTEX + k);
            }
        }
        return out;
    }

    private static float lerp(SplittableRandom random, float min, float max) {
        float pad = (max - min) * 0.2f + 0.1f;
        return (float) random.nextDouble(min - pad, max + pad);
    }
}
