package dev.weft.demo.render;

import dev.weft.assets.TextureSource;

import dev.weft.assets.MeshSource;

import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/** Argument checks shared by both renderers, so a bad asset fails the same way with or without GL. */
final class UploadChecks {
    private UploadChecks() {}

    /** Returns the vertex count after checking layout and that every index is in range. */
    static int checkMesh(MeshSource source) {
        FloatBuffer v = source.vertices();
        IntBuffer idx = source.indices();
        if (v.remaining() == 0 || v.remaining() % MeshSource.FLOATS_PER_VERTEX != 0) {
            throw new IllegalArgumentException("vertex floats must be a positive multiple of "
                    + MeshSource.FLOATS_PER_VERTEX + " (pos3 normal3 uv2), got " + v.remaining());
        }
        if (idx.remaining() == 0 || idx.remaining() % 3 != 0) {
            throw new IllegalArgumentException("index count must be a positive multiple of 3, got "
                    + idx.remaining());
        }
        int vertexCount = v.remaining() / MeshSource.FLOATS_PER_VERTEX;
        for (int i = idx.position(), end = idx.limit(); i < end; i++) {
            int index = idx.get(i);
            if (index < 0 || index >= vertexCount) {
                throw new IllegalArgumentException("index " + index + " at " + (i - idx.position())
                        + " is outside the " + vertexCount + " vertices");
            }
        }
        return vertexCount;
    }

    static void checkTexture(TextureSource source, int maxSize) {
        int w = source.width();
        int h = source.height();
        if (w <= 0 || h <= 0 || w > maxSize || h > maxSize) {
            throw new IllegalArgumentException("texture size " + w + "x" + h + " outside 1.." + maxSize);
        }
        long expected = 4L * w * h;
        if (source.rgba().remaining() != expected) {
            throw new IllegalArgumentException("RGBA8 " + w + "x" + h + " needs " + expected + " bytes, got "
                    + source.rgba().remaining());
        }
    }

    /** True when LWJGL can read the buffer in place (direct, native byte order). */
    static boolean usableInPlace(FloatBuffer b) {
        return b.isDirect() && b.order() == ByteOrder.nativeOrder();
    }

    static boolean usableInPlace(IntBuffer b) {
        return b.isDirect() && b.order() == ByteOrder.nativeOrder();
    }
}
