package dev.weft.demo.window;

/**
 * A place to draw frames: a window, an offscreen GL surface, or nothing. Opened by {@link Displays#open}.
 *
 * <p>Threading: every method must be called on the thread that opened the display; for GL-backed kinds
 * that thread also owns the GL context, which stays current on it until {@link #close()}.
 *
 * <p>Frame protocol, once per frame: {@link #pollEvents()}, draw, read pixels back if wanted (before the
 * swap: the back buffer's contents are undefined after it), then {@link #swapBuffers()}.
 */
public interface Display extends AutoCloseable {

    /** Which backend this is. */
    DisplayKind kind();

    /** One line for logs, e.g. {@code "GLFW window (X11, GLX context)"}. */
    String description();

    /** True when an OpenGL 3.3 core context is current on the owning thread. */
    default boolean hasGl() {
        return kind().hasGl();
    }

    /** Current framebuffer width in pixels (follows window resizes). */
    int framebufferWidth();

    /** Current framebuffer height in pixels. */
    int framebufferHeight();

    /** True once the user closed the window or {@link #requestClose()} was called. */
    boolean shouldClose();

    /** Asks the loop to stop: {@link #shouldClose()} returns true from now on. */
    void requestClose();

    /** Processes pending window events (input, resize, close); a no-op without a window system. */
    void pollEvents();

    /** Presents the frame just drawn; a no-op for {@link DisplayKind#NONE}. */
    void swapBuffers();

    /** The GLFW window handle for input callbacks, or 0 when there is no GLFW window. */
    long glfwWindow();

    /** Destroys the window/context and releases GLFW. Idempotent. */
    @Override
    void close();
}
