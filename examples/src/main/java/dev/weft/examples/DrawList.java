package dev.weft.examples;

import java.util.Arrays;

/**
 * The frame's draws, in the order the renderer issues them: one 16-float model matrix (column-major)
 * per draw, in one flat array reused from frame to frame, so filling it makes no garbage per draw.
 */
public final class DrawList {
    static final int FLOATS_PER_MODEL = 16;

    private float[] models;
    private int size;

    /** An empty list with room for {@code initialCapacity} draws before it grows. */
    public DrawList(int initialCapacity) {
        if (initialCapacity < 1) {
            throw new IllegalArgumentException("initialCapacity must be at least 1, was " + initialCapacity);
        }
        models = new float[initialCapacity * FLOATS_PER_MODEL];
    }

    /** Empties the list, keeping its storage. */
    public void clear() {
        size = 0;
    }

    /** Appends one draw: the model matrix at {@code models[offset]} to {@code models[offset + 15]}. */
    public void add(float[] source, int offset) {
        if (offset < 0 || offset + FLOATS_PER_MODEL > source.length) {
            throw new IndexOutOfBoundsException("a model matrix needs 16 floats from offset " + offset
                    + ", the array has " + source.length);
        }
        if ((size + 1) * FLOATS_PER_MODEL > models.length) {
            models = Arrays.copyOf(models, models.length * 2);
        }
        System.arraycopy(source, offset, models, size * FLOATS_PER_MODEL, FLOATS_PER_MODEL);
        size++;
    }

    /** Number of draws. */
    public int size() {
        return size;
    }

    /** Translation x of draw {@code i} (column 3 of its model matrix). */
    public float x(int i) {
        return models[checked(i) * FLOATS_PER_MODEL + 12];
    }

    /** Translation y of draw {@code i}. */
    public float y(int i) {
        return models[checked(i) * FLOATS_PER_MODEL + 13];
    }

    /** A hash of every draw's matrix, in order: equal lists give equal hashes, whoever built them. */
    public long contentHash() {
        long h = 1125899906842597L;
        for (int i = 0; i < size * FLOATS_PER_MODEL; i++) {
            h = 31 * h + Float.floatToIntBits(models[i]);
        }
        return h;
    }

    private int checked(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("draw " + i + " of " + size);
        }
        return i;
    }
}
