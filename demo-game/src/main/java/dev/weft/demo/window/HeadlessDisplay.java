package dev.weft.demo.window;

/** {@link DisplayKind#NONE}: no window, no GL; keeps the configured size so layout code still works. */
final class HeadlessDisplay implements Display {
    private final int width;
    private final int height;
    private boolean closeRequested; // owner thread only

    HeadlessDisplay(DisplayConfig config) {
        this.width = config.width();
        this.height = config.height();
    }

    @Override public DisplayKind kind() { return DisplayKind.NONE; }
    @Override public String description() { return "no display (headless, no GL)"; }
    @Override public int framebufferWidth() { return width; }
    @Override public int framebufferHeight() { return height; }
    @Override public boolean shouldClose() { return closeRequested; }
    @Override public void requestClose() { closeRequested = true; }
    @Override public void pollEvents() {}
    @Override public void swapBuffers() {}
    @Override public long glfwWindow() { return 0L; }
    @Override public void close() { closeRequested = true; }
}
