package dev.weft.bench.streaming;

import dev.weft.bench.RangeBody;

/**
 * The frame's work: {@code count} entities as structure-of-arrays, each integrated {@code substeps}
 * times per frame (a damped spring towards its anchor, semi-implicit Euler). {@code substeps} is what
 * {@link Calibration} tunes so one frame costs the requested CPU time. Every range writes only its own
 * entities, so the result does not depend on how the frame was split; {@link #checksum()} consumes the
 * positions so the JIT cannot drop the arithmetic.
 */
final class EntityWork implements RangeBody {
    private static final float DT = 1f / 60f;
    private static final float STIFFNESS = 4f;
    private static final float DAMPING = 0.35f;

    private final int count;
    private final int substeps;
    private final float[] px, py, vx, vy, ax, ay;

    EntityWork(int count, int substeps, long seed) {
        if (count < 1 || substeps < 1) {
            throw new IllegalArgumentException("entities (" + count + ") and substeps (" + substeps + ") must be at least 1");
        }
        this.count = count;
        this.substeps = substeps;
        px = new float[count];
        py = new float[count];
        vx = new float[count];
        vy = new float[count];
        ax = new float[count];
        ay = new float[count];
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        for (int i = 0; i < count; i++) {
            ax[i] = (float) random.nextDouble(-100, 100);
            ay[i] = (float) random.nextDouble(-100, 100);
            px[i] = ax[i] + (float) random.nextDouble(-5, 5);
            py[i] = ay[i] + (float) random.nextDouble(-5, 5);
            vx[i] = (float) random.nextDouble(-1, 1);
            vy[i] = (float) random.nextDouble(-1, 1);
        }
    }

    int count() {
        return count;
    }

    int substeps() {
        return substeps;
    }

    /** Integrates entities {@code [start, end)} for one frame. Called concurrently with disjoint ranges. */
    @Override
    public void run(int start, int end) {
        float h = DT / substeps;
        for (int i = start; i < end; i++) {
            float x = px[i], y = py[i], u = vx[i], v = vy[i];
            float cx = ax[i], cy = ay[i];
            for (int s = 0; s < substeps; s++) {
                float fx = -STIFFNESS * (x - cx) - DAMPING * u;
                float fy = -STIFFNESS * (y - cy) - DAMPING * v;
                u += fx * h;
                v += fy * h;
                x += u * h;
                y += v * h;
            }
            px[i] = x;
            py[i] = y;
            vx[i] = u + 0.01f * (cy - y);     // a small swirl keeps the springs from settling to rest
            vy[i] = v - 0.01f * (cx - x);
        }
    }

    /** A hash of every position: read after the frames so their arithmetic is consumed. */
    long checksum() {
        long h = 1125899906842597L;
        for (int i = 0; i < count; i++) {
            h = 31 * h + Float.floatToIntBits(px[i]);
            h = 31 * h + Float.floatToIntBits(py[i]);
        }
        return h;
    }
}
