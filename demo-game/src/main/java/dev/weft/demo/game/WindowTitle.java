package dev.weft.demo.game;

import dev.weft.demo.window.Display;
import java.util.Locale;
import org.lwjgl.glfw.GLFW;

/** The window-title HUD: a status line every few frames, run as a main-thread job queued by the merge job. */
final class WindowTitle {
    private WindowTitle() {}

    /** Puts frame, visible counts and the jobs' time in the window title; does nothing without a GLFW window. */
    static FrameGraph.MainThreadReport report(Display display) {
        return (frame, visible, props, stageNanos) -> {
            long handle = display.glfwWindow();
            if (handle != 0L) {
                double ms = 0;
                for (long s : stageNanos) {
                    ms += s / 1e6;
                }
                GLFW.glfwSetWindowTitle(handle, String.format(Locale.ROOT,
                        "Weft demo - frame %d, %d entities + %d props visible, jobs %.2f ms", frame, visible, props, ms));
            }
        };
    }
}
