package dev.weft.demo.render;

/**
 * Where the 2D overlays go and what colours they use, in framebuffer pixels (y down). Pure arithmetic so
 * tests can predict pixels.
 */
final class OverlayLayout {
    private OverlayLayout() {}

    // Loading screen, RGBA.
    static final float[] LOADING_BACKGROUND = {0.07f, 0.08f, 0.11f, 1f};
    static final float[] LOADING_FRAME = {0.55f, 0.60f, 0.70f, 1f};
    static final float[] LOADING_TRACK = {0.14f, 0.16f, 0.21f, 1f};
    static final float[] LOADING_FILL = {0.25f, 0.62f, 0.95f, 1f};
    static final float[] LOADING_FILL_EDGE = {0.70f, 0.88f, 1.00f, 1f};
    static final int LOADING_FRAME_PX = 2;
    static final int LOADING_GAP_PX = 2;

    // Frame-time graph, RGBA.
    static final float[] GRAPH_BACKGROUND = {0f, 0f, 0f, 0.6f};
    static final float[] GRAPH_OK = {0.30f, 0.85f, 0.35f, 1f};
    static final float[] GRAPH_SLOW = {0.95f, 0.70f, 0.20f, 1f};
    static final float[] GRAPH_HITCH = {0.95f, 0.25f, 0.20f, 1f};
    static final float[] GRAPH_BUDGET = {1f, 1f, 1f, 0.9f};
    static final int GRAPH_MARGIN_PX = 12;
    static final int GRAPH_PADDING_PX = 4;
    static final int GRAPH_BUDGET_LINE_PX = 2;

    /** The outer frame of the loading bar: 60% of the width, centred, at least 12 px tall. */
    static Rect loadingBarFrame(int fbWidth, int fbHeight) {
        int w = Math.max(16, Math.round(fbWidth * 0.6f));
        int h = Math.max(12, fbHeight / 24);
        return new Rect((fbWidth - w) / 2, (fbHeight - h) / 2, w, h);
    }

    /** The inside of the frame that the fill grows across. */
    static Rect loadingBarTrack(int fbWidth, int fbHeight) {
        Rect f = loadingBarFrame(fbWidth, fbHeight);
        int inset = LOADING_FRAME_PX + LOADING_GAP_PX;
        return new Rect(f.x() + inset, f.y() + inset, f.width() - 2 * inset, f.height() - 2 * inset);
    }

    /** Filled width for a progress fraction (clamped to 0..1; NaN counts as 0). */
    static int loadingFillWidth(Rect track, float fraction) {
        float f = fraction > 0f ? Math.min(fraction, 1f) : 0f;
        return Math.round(track.width() * f);
    }

    /** The graph panel: bottom-left, 2 px per sample when it fits, a quarter of the height at most. */
    static Rect graphPanel(int fbWidth, int fbHeight, int capacity) {
        int w = Math.min(2 * capacity + 2 * GRAPH_PADDING_PX, fbWidth - 2 * GRAPH_MARGIN_PX);
        int h = Math.min(100, fbHeight / 4);
        return new Rect(GRAPH_MARGIN_PX, fbHeight - GRAPH_MARGIN_PX - h, Math.max(w, 8), Math.max(h, 8));
    }

    /** The plotting area inside the panel. */
    static Rect graphPlot(Rect panel) {
        int p = GRAPH_PADDING_PX;
        return new Rect(panel.x() + p, panel.y() + p, Math.max(1, panel.width() - 2 * p),
                Math.max(1, panel.height() - 2 * p));
    }

    /** Milliseconds at the top of the plot: 1.1 x the worst sample, kept between 2 and 4 budgets. */
    static double graphScaleMillis(FrameTimeGraph graph) {
        double budget = graph.budgetMillis();
        return Math.clamp(graph.maxMillis() * 1.1, 2.0 * budget, 4.0 * budget);
    }

    static float[] graphBarColour(float millis, double budgetMillis) {
        if (millis <= budgetMillis) {
            return GRAPH_OK;
        }
        return millis <= 2.0 * budgetMillis ? GRAPH_SLOW : GRAPH_HITCH;
    }
}
