package dev.weft.demo.game;

/**
 * Sine and cosine in float arithmetic only, for the per-entity work of every frame.
 *
 * <p>Why not {@link Math}: its intrinsics may differ between JVMs and CPUs, and the demo promises the
 * same frames from a seed everywhere (Java's float arithmetic is strict, so these are bit-identical
 * on every JVM). Why not {@link StrictMath}: its fdlibm port allocates a {@code double[2]} per call for
 * arguments beyond pi/4, which at 10,000 entities was ~0.5 MB of garbage a frame.
 *
 * <p>Accuracy: within 3e-7 of {@code Math.sin}/{@code Math.cos} for |x| <= 2 pi (1.7e-7 measured) and within 1e-6 up to
 * |x| = 1000 (2.2e-7 measured; the reduction subtracts a float multiple of 2 pi); checked in {@code FloatTrigTest}.
 */
final class FloatTrig {
    private static final float PI = (float) Math.PI;
    private static final float HALF_PI = (float) (Math.PI / 2);
    private static final float QUARTER_PI = (float) (Math.PI / 4);
    private static final float INV_TWO_PI = (float) (1 / (2 * Math.PI));
    // 2 pi split in two floats (Cody-Waite): TWO_PI_HI has few significant bits, so k * TWO_PI_HI is exact.
    private static final float TWO_PI_HI = 6.28125f;
    private static final float TWO_PI_LO = (float) (2 * Math.PI - 6.28125);

    private FloatTrig() {}

    /** sin(x) for a finite x; NaN for NaN or an infinity. */
    static float sin(float x) {
        if (!Float.isFinite(x)) {
            return Float.NaN;
        }
        float r = reduce(x);                              // [-pi, pi]
        float sign = r < 0f ? -1f : 1f;                   // sin is odd
        float a = Math.abs(r);
        if (a > HALF_PI) {                                // sin(pi - a) = sin(a)
            a = PI - a;
        }
        return sign * (a > QUARTER_PI ? cosPolynomial(HALF_PI - a) : sinPolynomial(a));
    }

    /** cos(x) for a finite x; NaN for NaN or an infinity. */
    static float cos(float x) {
        if (!Float.isFinite(x)) {
            return Float.NaN;
        }
        float a = Math.abs(reduce(x));                    // cos is even
        float sign = 1f;
        if (a > HALF_PI) {                                // cos(a) = -cos(pi - a)
            a = PI - a;
            sign = -1f;
        }
        return sign * (a > QUARTER_PI ? sinPolynomial(HALF_PI - a) : cosPolynomial(a));
    }

    /** x minus the nearest multiple of 2 pi. */
    private static float reduce(float x) {
        if (x <= PI && x >= -PI) {
            return x;
        }
        float k = (float) Math.rint(x * INV_TWO_PI);
        return (x - k * TWO_PI_HI) - k * TWO_PI_LO;
    }

    /** Taylor to r^11 for |r| <= pi/4: truncation error < 1e-10. */
    private static float sinPolynomial(float r) {
        float r2 = r * r;
        float p = -2.5052108e-8f;                         // -1/11!
        p = p * r2 + 2.7557319e-6f;                       // 1/9!
        p = p * r2 - 1.9841270e-4f;                       // -1/7!
        p = p * r2 + 8.3333333e-3f;                       // 1/5!
        p = p * r2 - 1.6666667e-1f;                       // -1/3!
        return r + r * r2 * p;
    }

    /** Taylor to r^12 for |r| <= pi/4: truncation error < 1e-11. */
    private static float cosPolynomial(float r) {
        float r2 = r * r;
        float p = 2.0876757e-9f;                          // 1/12!
        p = p * r2 - 2.7557319e-7f;                       // -1/10!
        p = p * r2 + 2.4801587e-5f;                       // 1/8!
        p = p * r2 - 1.3888889e-3f;                       // -1/6!
        p = p * r2 + 4.1666667e-2f;                       // 1/4!
        p = p * r2 - 0.5f;                                // -1/2!
        return 1f + r2 * p;
    }
}
