package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FloatTrigTest {

    /** The worst |FloatTrig - Math| of sin and cos over {@code n + 1} evenly spaced floats in [from, to]. */
    private static double worstError(double from, double to, int n) {
        double worst = 0;
        for (int i = 0; i <= n; i++) {
            float x = (float) (from + (to - from) * i / n);
            worst = Math.max(worst, Math.abs(FloatTrig.sin(x) - Math.sin(x)));
            worst = Math.max(worst, Math.abs(FloatTrig.cos(x) - Math.cos(x)));
        }
        return worst;
    }

    @Test
    void matchesMathWithinTheDocumentedErrorOverTwoTurns() {
        double worst = worstError(-2 * Math.PI, 2 * Math.PI, 2_000_000);
        System.out.println("FloatTrig worst error over [-2 pi, 2 pi]: " + worst);
        assertTrue(worst < 3e-7, "worst error over [-2 pi, 2 pi]: " + worst);
    }

    @Test
    void reducesLargeArgumentsWithinTheDocumentedError() {
        double worst = worstError(-1000, 1000, 1_000_000);
        System.out.println("FloatTrig worst error over [-1000, 1000]: " + worst);
        assertTrue(worst < 1e-6, "worst error over [-1000, 1000]: " + worst);
    }

    @Test
    void keepsTheIdentitiesTheEntitiesRelyOn() {
        assertEquals(0f, FloatTrig.sin(0f));
        assertEquals(1f, FloatTrig.cos(0f));
        assertEquals(FloatTrig.cos(0.7f), FloatTrig.cos(-0.7f));            // even
        assertEquals(1f, FloatTrig.sin((float) (Math.PI / 2)), 1e-7f);
        assertEquals(-FloatTrig.sin(0.7f), FloatTrig.sin(-0.7f));           // odd
        assertTrue(Float.isNaN(FloatTrig.sin(Float.NaN)));
        assertTrue(Float.isNaN(FloatTrig.cos(Float.POSITIVE_INFINITY)));
    }
}
