package dev.weft.assets;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/** Builds a {@link MeshData} straight from positions and indices (normals and UVs zero), for tests. */
final class MeshDataForTests {
    private MeshDataForTests() {
    }

    static MeshData of(float[] positions, int[] indices) {
        int vertexCount = positions.length / 3;
        FloatBuffer vertices = ByteBuffer.allocateDirect(vertexCount * MeshData.FLOATS_PER_VERTEX * Float.BYTES)
                .order(ByteOrder.nativeOrder()).asFloatBuffer();
        float minX = Float.POSITIVE_INFINITY, minY = minX, minZ = minX, maxX = -minX, maxY = maxX, maxZ = maxX;
        for (int v = 0; v < vertexCount; v++) {
            float x = positions[v * 3], y = positions[v * 3 + 1], z = positions[v * 3 + 2];
            vertices.put(new float[] {x, y, z, 0, 0, 0, 0, 0});
            minX = Math.min(minX, x);
            minY = Math.min(minY, y);
            minZ = Math.min(minZ, z);
            maxX = Math.max(maxX, x);
            maxY = Math.max(maxY, y);
            maxZ = Math.max(maxZ, z);
        }
        IntBuffer indexBuffer = ByteBuffer.allocateDirect(indices.length * Integer.BYTES).order(ByteOrder.nativeOrder()).asIntBuffer();
        indexBuffer.put(indices);
        return new MeshData("soup", vertices.flip(), indexBuffer.flip(), new Aabb(minX, minY, minZ, maxX, maxY, maxZ));
    }
}
