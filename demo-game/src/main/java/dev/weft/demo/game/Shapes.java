package dev.weft.demo.game;

import dev.weft.assets.MeshSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/** Meshes the game makes itself (the render package has the cube and the plane). */
final class Shapes {
    private Shapes() {}

    /** Vertices of {@link #uvSphere}. */
    static int uvSphereVertices(int segments, int rings) {
        return (segments + 1) * (rings + 1);
    }

    /** Indices of {@link #uvSphere}. */
    static int uvSphereIndices(int segments, int rings) {
        return segments * rings * 6;
    }

    /**
     * A UV sphere of {@code radius} centred on the origin, counter-clockwise seen from outside: a seam
     * column of duplicated vertices so u runs 0..1 around, v 0..1 from the top pole to the bottom one.
     */
    static MeshSource uvSphere(float radius, int segments, int rings) {
        if (segments < 3 || rings < 2) {
            throw new IllegalArgumentException("sphere needs >= 3 segments and >= 2 rings: " + segments + "x" + rings);
        }
        FloatBuffer v = ByteBuffer.allocateDirect(uvSphereVertices(segments, rings) * MeshSource.FLOATS_PER_VERTEX
                * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
        IntBuffer idx = ByteBuffer.allocateDirect(uvSphereIndices(segments, rings) * Integer.BYTES)
                .order(ByteOrder.nativeOrder()).asIntBuffer();
        for (int r = 0; r <= rings; r++) {
            double theta = Math.PI * r / rings;
            for (int s = 0; s <= segments; s++) {
                double phi = 2 * Math.PI * s / segments;
                // -sin(phi) on z makes increasing s run clockwise seen from +y, so quads below wind CCW outside.
                float nx = (float) (Math.sin(theta) * Math.cos(phi));
                float ny = (float) Math.cos(theta);
                float nz = (float) (-Math.sin(theta) * Math.sin(phi));
                v.put(nx * radius).put(ny * radius).put(nz * radius).put(nx).put(ny).put(nz);
                v.put((float) s / segments).put((float) r / rings);
            }
        }
        int stride = segments + 1;
        for (int r = 0; r < rings; r++) {
            for (int s = 0; s < segments; s++) {
                int i0 = r * stride + s;
                int i1 = i0 + stride;
                idx.put(i0).put(i1).put(i1 + 1).put(i0).put(i1 + 1).put(i0 + 1);
            }
        }
        return MeshSource.of(v.flip(), idx.flip());
    }
}
