package dev.weft.assets;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * A parsed mesh ready for upload: an indexed triangle list in direct, native-order buffers.
 *
 * <p>Vertex layout, interleaved, {@value #FLOATS_PER_VERTEX} floats per vertex: position xyz at
 * {@value #POSITION_OFFSET}, normal xyz at {@value #NORMAL_OFFSET}, uv at {@value #UV_OFFSET}. Indices are
 * three per triangle, counter-clockwise as in the file. The buffers come from
 * {@code ByteBuffer.allocateDirect}, so the GC frees them and there is nothing to close; a 100k-triangle
 * mesh is about 3 MB.
 *
 * <p>Immutable by contract: {@link #vertices()} and {@link #indices()} return fresh views (own position
 * and limit) of shared memory, which callers read but must not write. Safe to share across threads once
 * published.
 */
public final class MeshData {
    /**
     * Floats per interleaved vertex: position 3, normal 3, uv 2.
     */
    public static final int FLOATS_PER_VERTEX = 8;
    /**
     * Offset, in floats, of a vertex's position xyz.
     */
    public static final int POSITION_OFFSET = 0;
    /**
     * Offset, in floats, of a vertex's normal xyz.
     */
    public static final int NORMAL_OFFSET = 3;
    /**
     * Offset, in floats, of a vertex's uv.
     */
    public static final int UV_OFFSET = 6;

    private final String file;
    private final FloatBuffer vertices;
    private final IntBuffer indices;
    private final Aabb bounds;

    MeshData(String file, FloatBuffer vertices, IntBuffer indices, Aabb bounds) {
        this.file = file;
        this.vertices = vertices;
        this.indices = indices;
        this.bounds = bounds;
    }

    /**
     * A mesh from arrays a decoder of your own made (a format registered with {@link FileCodec#mesh}): the
     * arrays are copied, and the bounds are computed from the vertices the triangles use.
     *
     * @param file the file's name, for errors
     * @param vertices {@value #FLOATS_PER_VERTEX} floats per vertex: position 3, normal 3, uv 2
     * @param indices three per triangle, each a vertex number in range
     * @return the mesh
     * @throws IllegalArgumentException naming the file and what is wrong: a vertex array not a whole number
     *         of vertices, an index array not a whole number of triangles, or an index out of range
     */
    public static MeshData of(String file, float[] vertices, int[] indices) {
        if (vertices.length % FLOATS_PER_VERTEX != 0) {
            throw new IllegalArgumentException(file + ": " + vertices.length + " floats is not a whole number of"
                    + " vertices of " + FLOATS_PER_VERTEX + " (position 3, normal 3, uv 2)");
        }
        if (indices.length % 3 != 0) {
            throw new IllegalArgumentException(file + ": " + indices.length + " indices is not a whole number of triangles");
        }
        int vertexCount = vertices.length / FLOATS_PER_VERTEX;
        float minX = Float.POSITIVE_INFINITY, minY = minX, minZ = minX;
        float maxX = Float.NEGATIVE_INFINITY, maxY = maxX, maxZ = maxX;
        for (int i = 0; i < indices.length; i++) {
            int v = indices[i];
            if (v < 0 || v >= vertexCount) {
                throw new IllegalArgumentException(file + ": index " + i + " is " + v + ", outside the "
                        + vertexCount + " vertices");
            }
            int p = v * FLOATS_PER_VERTEX + POSITION_OFFSET;
            minX = Math.min(minX, vertices[p]);
            minY = Math.min(minY, vertices[p + 1]);
            minZ = Math.min(minZ, vertices[p + 2]);
            maxX = Math.max(maxX, vertices[p]);
            maxY = Math.max(maxY, vertices[p + 1]);
            maxZ = Math.max(maxZ, vertices[p + 2]);
        }
        Aabb bounds;
        try {
            bounds = indices.length == 0 ? new Aabb(0, 0, 0, 0, 0, 0) : new Aabb(minX, minY, minZ, maxX, maxY, maxZ);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": a vertex position is NaN: " + e.getMessage(), e);
        }
        FloatBuffer vb = ByteBuffer.allocateDirect(vertices.length * Float.BYTES).order(ByteOrder.nativeOrder())
                .asFloatBuffer().put(vertices).flip();
        IntBuffer ib = ByteBuffer.allocateDirect(indices.length * Integer.BYTES).order(ByteOrder.nativeOrder())
                .asIntBuffer().put(indices).flip();
        return new MeshData(file, vb, ib, bounds);
    }

    /**
     * The file name given to the parser.
     *
     * @return the file's display name, as used in errors
     */
    public String file() {
        return file;
    }

    /**
     * Interleaved pos3/normal3/uv2 floats, {@code vertexCount() * 8} of them.
     *
     * @return a new read-only-by-contract view of the vertex buffer
     */
    public FloatBuffer vertices() {
        return vertices.duplicate();
    }

    /**
     * {@code triangleCount() * 3} indices into {@link #vertices()}.
     *
     * @return a new read-only-by-contract view of the index buffer
     */
    public IntBuffer indices() {
        return indices.duplicate();
    }

    /**
     * The number of vertices.
     *
     * @return the number of vertices
     */
    public int vertexCount() {
        return vertices.limit() / FLOATS_PER_VERTEX;
    }

    /**
     * The number of triangles.
     *
     * @return the number of triangles
     */
    public int triangleCount() {
        return indices.limit() / 3;
    }

    /**
     * Bounds of the vertices used by triangles.
     *
     * @return the box around every vertex a triangle uses
     */
    public Aabb bounds() {
        return bounds;
    }

    /**
     * Component {@code axis} (0 x, 1 y, 2 z) of vertex {@code vertex}'s position.
     *
     * @param vertex the vertex index, 0 to {@code vertexCount() - 1}
     * @param axis 0 for x, 1 for y, 2 for z
     * @return the coordinate
     */
    public float position(int vertex, int axis) {
        return vertices.get(vertex * FLOATS_PER_VERTEX + POSITION_OFFSET + axis);
    }

    @Override
    public String toString() {
        return "MeshData[" + file + ": " + vertexCount() + " vertices, " + triangleCount() + " triangles]";
    }
}
