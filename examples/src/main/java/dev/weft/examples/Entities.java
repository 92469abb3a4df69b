package dev.weft.examples;

import java.util.SplittableRandom;

/**
 * The example's world: points moving in the square [-1, 1]², bouncing off its edges, in flat arrays
 * (structure of arrays) so a range of entities is a range of array slots.
 */
public final class Entities {
    /** Half the side of the square the camera sees; entities outside it are culled. */
    static final float VIEW_HALF_EXTENT = 0.8f;

    final float[] x;
    final float[] y;
    final float[] vx;
    final float[] vy;

    private Entities(int count) {
        x = new float[count];
        y = new float[count];
        vx = new float[count];
        vy = new float[count];
    }

    /** {@code count} entities at positions and velocities drawn from {@code seed}: same seed, same world. */
    public static Entities create(int count, long seed) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        Entities e = new Entities(count);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < count; i++) {
            e.x[i] = (float) random.nextDouble(-1, 1);
            e.y[i] = (float) random.nextDouble(-1, 1);
            e.vx[i] = (float) random.nextDouble(-0.5, 0.5);
            e.vy[i] = (float) random.nextDouble(-0.5, 0.5);
        }
        return e;
    }

    /** Number of entities. */
    public int size() {
        return x.length;
    }

    /** Moves entities {@code start} to {@code end - 1} by one step of {@code dtSeconds}. */
    static void simulate(Entities e, int start, int end, float dtSeconds) {
        for (int i = start; i < end; i++) {
            e.x[i] += e.vx[i] * dtSeconds;
            e.y[i] += e.vy[i] * dtSeconds;
            if (e.x[i] < -1 || e.x[i] > 1) {
                e.vx[i] = -e.vx[i];
                e.x[i] = Math.clamp(e.x[i], -1f, 1f);
            }
            if (e.y[i] < -1 || e.y[i] > 1) {
                e.vy[i] = -e.vy[i];
                e.y[i] = Math.clamp(e.y[i], -1f, 1f);
            }
        }
    }

    /**
     * The model matrices (column-major translations) of the entities in {@code [start, end)} that the
     * camera sees, in entity order.
     */
    static float[] cullAndBuild(Entities e, int start, int end) {
        int visible = 0;
        for (int i = start; i < end; i++) {
            if (isVisible(e, i)) {
                visible++;
            }
        }
        float[] models = new float[visible * DrawList.FLOATS_PER_MODEL];
        int offset = 0;
        for (int i = start; i < end; i++) {
            if (isVisible(e, i)) {
                models[offset] = 1;
                models[offset + 5] = 1;
                models[offset + 10] = 1;
                models[offset + 12] = e.x[i];
                models[offset + 13] = e.y[i];
                models[offset + 15] = 1;
                offset += DrawList.FLOATS_PER_MODEL;
            }
        }
        return models;
    }

    private static boolean isVisible(Entities e, int i) {
        return Math.abs(e.x[i]) <= VIEW_HALF_EXTENT && Math.abs(e.y[i]) <= VIEW_HALF_EXTENT;
    }
}
