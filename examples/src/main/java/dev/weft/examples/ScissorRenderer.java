package dev.weft.examples;

import static org.lwjgl.glfw.GLFW.glfwSetWindowShouldClose;
import static org.lwjgl.opengl.GL33C.*;

/**
 * A renderer small enough for an example: each draw is a small square cleared through the scissor
 * box, so it needs no shader or buffer. It keeps what the example prints (frames drawn, the last
 * frame's draws), and closes the window after the number of frames it was asked to draw, as a player
 * closing it would.
 */
final class ScissorRenderer {
    private static final int SQUARE_PIXELS = 3;

    private final long window;
    private final int widthPixels;
    private final int heightPixels;
    private final int framesToDraw;
    private int framesDrawn;
    private int lastDrawCount;
    private long lastDrawHash;

    ScissorRenderer(long window, int widthPixels, int heightPixels, int framesToDraw) {
        this.window = window;
        this.widthPixels = widthPixels;
        this.heightPixels = heightPixels;
        this.framesToDraw = framesToDraw;
    }

    void beginFrame() {
        glDisable(GL_SCISSOR_TEST);
        glClearColor(0.05f, 0.05f, 0.1f, 1f);
        glClear(GL_COLOR_BUFFER_BIT);
    }

    /** Draws every entry of {@code draws}: GL calls, so on the thread that owns the context only. */
    void drawScene(DrawList draws) {
        glEnable(GL_SCISSOR_TEST);
        glClearColor(1f, 0.8f, 0.3f, 1f);
        float scale = 0.5f / Entities.VIEW_HALF_EXTENT;             // view square -> [0, 1]
        for (int i = 0; i < draws.size(); i++) {
            int px = (int) ((draws.x(i) * scale + 0.5f) * (widthPixels - SQUARE_PIXELS));
            int py = (int) ((draws.y(i) * scale + 0.5f) * (heightPixels - SQUARE_PIXELS));
            glScissor(px, py, SQUARE_PIXELS, SQUARE_PIXELS);
            glClear(GL_COLOR_BUFFER_BIT);
        }
        int error = glGetError();
        if (error != GL_NO_ERROR) {
            throw new IllegalStateException("GL error 0x" + Integer.toHexString(error) + " while drawing");
        }
        framesDrawn++;
        lastDrawCount = draws.size();
        lastDrawHash = draws.contentHash();
        if (framesDrawn >= framesToDraw) {
            glfwSetWindowShouldClose(window, true);
        }
    }

    int framesDrawn() {
        return framesDrawn;
    }

    int lastDrawCount() {
        return lastDrawCount;
    }

    long lastDrawHash() {
        return lastDrawHash;
    }
}
