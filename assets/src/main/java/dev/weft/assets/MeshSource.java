package dev.weft.assets;

import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * CPU-side mesh data for {@link GpuUploader#uploadMesh}: an indexed triangle list.
 *
 * <p>Vertex layout, interleaved, {@value #FLOATS_PER_VERTEX} floats per vertex: position xyz, normal xyz,
 * texture coordinates uv. Indices are unsigned, three per triangle, counter-clockwise front faces. Only
 * the buffers' {@code remaining()} elements are read and their positions are left untouched; heap or
 * non-native-order buffers are accepted (copied before upload). The asset loader's mesh type can
 * implement this directly or be wrapped with {@link #of}.
 */
public interface MeshSource {
    /** Floats per vertex: 3 position + 3 normal + 2 uv. */
    int FLOATS_PER_VERTEX = 8;

    /**
     * Interleaved pos3/normal3/uv2 vertex data.
     *
     * @return the vertex data, {@link #FLOATS_PER_VERTEX} floats per vertex
     */
    FloatBuffer vertices();

    /**
     * Triangle indices into {@link #vertices()}.
     *
     * @return the indices, three per triangle
     */
    IntBuffer indices();

    /**
     * Wraps two buffers.
     *
     * @param vertices the interleaved vertex data; not null
     * @param indices the triangle indices; not null
     * @return the source
     */
    static MeshSource of(FloatBuffer vertices, IntBuffer indices) {
        return new Buffers(vertices, indices);
    }

    /**
     * The plain pair of buffers.
     *
     * @param vertices the interleaved vertex data
     * @param indices the triangle indices
     */
    record Buffers(FloatBuffer vertices, IntBuffer indices) implements MeshSource {
        /**
         * Checks both buffers are set.
         *
         * @throws NullPointerException if either buffer is null
         */
        public Buffers {
            if (vertices == null || indices == null) {
                throw new NullPointerException("vertices and indices must be set");
            }
        }
    }
}
