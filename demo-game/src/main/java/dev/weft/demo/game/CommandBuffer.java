package dev.weft.demo.game;

import dev.weft.demo.render.DrawList;
import java.util.Arrays;

/**
 * Render commands in a compact, allocation-free form: per command a mesh id, a texture id, the entity it
 * came from (-1 for a static prop) and a column-major 4x4 model matrix. Used for one worker's output in
 * one frame, and for a frame's merged, sorted output.
 *
 * <p>Not thread-safe: one writer at a time (the worker that owns it, or the merge job), and readers
 * only after a counter wait that follows the writes.
 */
final class CommandBuffer {
    static final int MATRIX_FLOATS = DrawList.MATRIX_FLOATS;   // the same layout the renderer takes

    int count;
    int[] mesh;
    int[] texture;
    int[] entity;
    float[] model;

    CommandBuffer(int capacity) {
        int c = Math.max(16, capacity);
        mesh = new int[c];
        texture = new int[c];
        entity = new int[c];
        model = new float[c * MATRIX_FLOATS];
    }

    void clear() {
        count = 0;
    }

    /** Appends a command and returns its index; its matrix is at {@code model[index * 16]}, to be filled in. */
    int add(int meshId, int textureId, int entityIndex) {
        if (count == mesh.length) {
            grow(count * 2);
        }
        int i = count++;
        mesh[i] = meshId;
        texture[i] = textureId;
        entity[i] = entityIndex;
        return i;
    }

    void ensureCapacity(int n) {
        if (n > mesh.length) {
            grow(Math.max(n, mesh.length * 2));
        }
    }

    private void grow(int capacity) {
        mesh = Arrays.copyOf(mesh, capacity);
        texture = Arrays.copyOf(texture, capacity);
        entity = Arrays.copyOf(entity, capacity);
        model = Arrays.copyOf(model, capacity * MATRIX_FLOATS);
    }

    /** A hash of every command in order (ids and the matrices' exact bits), for determinism checks. */
    long contentHash() {
        long h = 1125899906842597L;
        for (int i = 0; i < count; i++) {
            h = 31 * h + mesh[i];
            h = 31 * h + texture[i];
            h = 31 * h + entity[i];
            for (int k = 0; k < MATRIX_FLOATS; k++) {
                h = 31 * h + Float.floatToIntBits(model[i * MATRIX_FLOATS + k]);
            }
        }
        return h;
    }

    /** Writes the matrix translate(x, y, z) * rotateY(yaw) * scale(sx, sy, sz) at command {@code i}. */
    void setModel(int i, float x, float y, float z, float sin, float cos, float sx, float sy, float sz) {
        float[] m = model;
        int o = i * MATRIX_FLOATS;
        m[o] = cos * sx;
        m[o + 1] = 0f;
        m[o + 2] = -sin * sx;
        m[o + 3] = 0f;
        m[o + 4] = 0f;
        m[o + 5] = sy;
        m[o + 6] = 0f;
        m[o + 7] = 0f;
        m[o + 8] = sin * sz;
        m[o + 9] = 0f;
        m[o + 10] = cos * sz;
        m[o + 11] = 0f;
        m[o + 12] = x;
        m[o + 13] = y;
        m[o + 14] = z;
        m[o + 15] = 1f;
    }
}
