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

    /** Interleaved pos3/normal3/uv2 vertex data. */
    FloatBuffer vertices();

    /** Triangle indices into {@link #vertices()}. */
    IntBuffer indices();

    /** Wraps two buffers. */
    static MeshSource of(FloatBuffer vertices, IntBuffer indices) {
        return new Buffers(vertices, indices);
    }

    /** The plain pair of buffers. */
    record Buffers(FloatBuffer vertices, IntBuffer indices) implements MeshSource {
        public Buffers {
            if (vertices == null || indices == null) {
                throw new NullPointerException("vertices and indices must be set");
            }
        }
    }
}
