package dev.weft.demo.window;

/**
 * What to open.
 *
 * @param width     framebuffer width in pixels (window client area, or offscreen surface)
 * @param height    framebuffer height in pixels
 * @param title     window title
 * @param preferred the backend to try first; {@link Displays#open} falls back from there
 * @param vsync     whether {@code swapBuffers} waits for vertical blank (window only)
 */
public record DisplayConfig(int width, int height, String title, DisplayKind preferred, boolean vsync) {
    public DisplayConfig {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("display size must be positive: " + width + "x" + height);
        }
        if (title == null || preferred == null) {
            throw new NullPointerException("title and preferred must be set");
        }
    }

    /** 1280x720, best available backend, vsync on. */
    public static DisplayConfig defaults() {
        return new DisplayConfig(1280, 720, "Weft demo", DisplayKind.WINDOW, true);
    }

    public DisplayConfig withPreferred(DisplayKind kind) {
        return new DisplayConfig(width, height, title, kind, vsync);
    }
}
