package dev.weft.assets;

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
