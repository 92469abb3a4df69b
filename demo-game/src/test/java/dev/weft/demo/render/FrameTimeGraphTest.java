package dev.weft.demo.render;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class FrameTimeGraphTest {

    @Test
    void keepsSamplesOldestFirstUntilFull() {
        FrameTimeGraph g = new FrameTimeGraph(4, 10.0);
        g.recordMillis(1);
        g.recordMillis(2);
        g.recordMillis(3);
        assertEquals(3, g.size());
        assertEquals(1f, g.millisAt(0));
        assertEquals(3f, g.millisAt(2));
        assertEquals(3f, g.latestMillis());
        assertThrows(IndexOutOfBoundsException.class, () -> g.millisAt(3));
    }

    @Test
    void overwritesTheOldestOnceFull() {
        FrameTimeGraph g = new FrameTimeGraph(4, 10.0);
        for (int i = 1; i <= 10; i++) {
            g.recordMillis(i);
        }
        assertEquals(4, g.size(), "size is capped at capacity");
        assertArrayEquals(new float[] {7, 8, 9, 10},
                new float[] {g.millisAt(0), g.millisAt(1), g.millisAt(2), g.millisAt(3)});
        assertEquals(10f, g.maxMillis());
        assertEquals(8.5, g.meanMillis(), 1e-9);
    }

    @Test
    void countsFramesOverBudgetAndConvertsNanos() {
        FrameTimeGraph g = new FrameTimeGraph();
        assertEquals(240, g.capacity());
        assertEquals(16.666, g.budgetMillis(), 1e-3);
        g.recordNanos(16_000_000L);
        g.recordNanos(17_000_000L);
        g.recordNanos(40_000_000L);
        assertEquals(2, g.overBudgetCount());
        assertEquals(40f, g.latestMillis(), 1e-4);
    }

    @Test
    void storesNegativeAndNanAsZero() {
        FrameTimeGraph g = new FrameTimeGraph(2, 16.0);
        g.recordMillis(-3);
        g.recordMillis(Double.NaN);
        assertEquals(0f, g.millisAt(0));
        assertEquals(0f, g.millisAt(1));
    }

    @Test
    void graphScaleKeepsTheBudgetLineOnScreen() {
        FrameTimeGraph g = new FrameTimeGraph(8, 10.0);
        g.recordMillis(1);
        assertEquals(20.0, OverlayLayout.graphScaleMillis(g), 1e-9, "at least two budgets tall");
        g.recordMillis(1000);
        assertEquals(40.0, OverlayLayout.graphScaleMillis(g), 1e-9, "a hitch is clipped at four budgets");
    }
}
