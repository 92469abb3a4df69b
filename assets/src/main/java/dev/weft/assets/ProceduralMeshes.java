package dev.weft.assets;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/** Meshes made in code: the placeholder cube, and the demo's procedural levels, smoke run and tests. Buffers are GC-managed direct memory. */
public final class ProceduralMeshes {
    private ProceduralMeshes() {}

    // For each face: normal, then u and v axes with u x v = normal (so corners wind counter-clockwise).
    private static final float[][] CUBE_FACES = {
        {1, 0, 0,   0, 0, -1,   0, 1, 0},
        {-1, 0, 0,  0, 0, 1,    0, 1, 0},
        {0, 1, 0,   1, 0, 0,    0, 0, -1},
        {0, -1, 0,  1, 0, 0,    0, 0, 1},
        {0, 0, 1,   1, 0, 0,    0, 1, 0},
        {0, 0, -1,  -1, 0, 0,   0, 1, 0},
    };

    /**
     * An axis-aligned cube of edge {@code size} centred on the origin: 24 vertices, 12 triangles.
     *
     * @param size the edge length, in the mesh's units
     * @return the cube, in new direct buffers
     */
    public static MeshSource cube(float size) {
        float h = size / 2f;
        FloatBuffer v = floats(24 * MeshSource.FLOATS_PER_VERTEX);
        IntBuffer idx = ints(36);
        int[][] corners = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        int base = 0;
        for (float[] f : CUBE_FACES) {
            for (int[] c : corners) {
                for (int k = 0; k < 3; k++) {
                    v.put(h * (f[k] + c[0] * f[3 + k] + c[1] * f[6 + k]));
                }
                v.put(f[0]).put(f[1]).put(f[2]);
                v.put((c[0] + 1) / 2f).put((c[1] + 1) / 2f);
            }
            idx.put(base).put(base + 1).put(base + 2).put(base).put(base + 2).put(base + 3);
            base += 4;
        }
        return MeshSource.of(v.flip(), idx.flip());
    }

    /**
     * A square on y = 0 facing +y, edge {@code size}, texture repeated {@code uvRepeat} times.
     *
     * @param size the edge length, in the mesh's units
     * @param uvRepeat how many times the texture repeats along each edge
     * @return the square, in new direct buffers
     */
    public static MeshSource plane(float size, float uvRepeat) {
        float h = size / 2f;
        FloatBuffer v = floats(4 * MeshSource.FLOATS_PER_VERTEX);
        float[][] xz = {{-h, -h}, {-h, h}, {h, h}, {h, -h}};
        float[][] uv = {{0, 0}, {0, uvRepeat}, {uvRepeat, uvRepeat}, {uvRepeat, 0}};
        for (int i = 0; i < 4; i++) {
            v.put(xz[i][0]).put(0f).put(xz[i][1]).put(0f).put(1f).put(0f).put(uv[i][0]).put(uv[i][1]);
        }
        IntBuffer idx = ints(6).put(0).put(1).put(2).put(0).put(2).put(3);
        return MeshSource.of(v.flip(), idx.flip());
    }

    private static FloatBuffer floats(int n) {
        return ByteBuffer.allocateDirect(n * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
    }

    private static IntBuffer ints(int n) {
        return ByteBuffer.allocateDirect(n * Integer.BYTES).order(ByteOrder.nativeOrder()).asIntBuffer();
    }
}
