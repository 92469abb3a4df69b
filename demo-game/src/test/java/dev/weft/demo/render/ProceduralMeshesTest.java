package dev.weft.demo.render;

import dev.weft.assets.MeshSource;
import dev.weft.assets.ProceduralMeshes;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

class ProceduralMeshesTest {

    @Test
    void cubeHas24VerticesAnd12OutwardCounterClockwiseTriangles() {
        MeshSource cube = ProceduralMeshes.cube(2f);
        assertEquals(24, UploadChecks.checkMesh(cube));
        assertEquals(36, cube.indices().remaining());
        assertTrianglesFaceTheirNormals(cube);
        FloatBuffer v = cube.vertices();
        for (int i = 0; i < 24; i++) {
            int b = i * MeshSource.FLOATS_PER_VERTEX;
            Vector3f p = new Vector3f(v.get(b), v.get(b + 1), v.get(b + 2));
            Vector3f n = new Vector3f(v.get(b + 3), v.get(b + 4), v.get(b + 5));
            assertEquals(1f, n.length(), 1e-6f, "unit normal");
            assertEquals(1f, p.dot(n), 1e-6f, "vertex lies on its face plane (half-size 1)");
            assertTrue(v.get(b + 6) >= 0f && v.get(b + 6) <= 1f && v.get(b + 7) >= 0f && v.get(b + 7) <= 1f);
        }
    }

    @Test
    void planeFacesUp() {
        MeshSource plane = ProceduralMeshes.plane(4f, 3f);
        assertEquals(4, UploadChecks.checkMesh(plane));
        assertTrianglesFaceTheirNormals(plane);
    }

    private static void assertTrianglesFaceTheirNormals(MeshSource m) {
        FloatBuffer v = m.vertices();
        IntBuffer idx = m.indices();
        for (int t = 0; t < idx.remaining(); t += 3) {
            Vector3f a = position(v, idx.get(t));
            Vector3f b = position(v, idx.get(t + 1));
            Vector3f c = position(v, idx.get(t + 2));
            Vector3f faceNormal = new Vector3f(b).sub(a).cross(new Vector3f(c).sub(a));
            int n = idx.get(t) * MeshSource.FLOATS_PER_VERTEX + 3;
            Vector3f stored = new Vector3f(v.get(n), v.get(n + 1), v.get(n + 2));
            assertTrue(faceNormal.dot(stored) > 0f, "triangle " + t / 3 + " winds counter-clockwise seen from outside");
        }
    }

    private static Vector3f position(FloatBuffer v, int index) {
        int b = index * MeshSource.FLOATS_PER_VERTEX;
        return new Vector3f(v.get(b), v.get(b + 1), v.get(b + 2));
    }
}
