package dev.weft.demo.window;

import static org.lwjgl.glfw.GLFW.*;

import java.util.concurrent.atomic.AtomicBoolean;
import org.lwjgl.glfw.Callbacks;
import org.lwjgl.glfw.GLFW;
import org.lwjgl.glfw.GLFWErrorCallback;
import org.lwjgl.glfw.GLFWErrorCallbackI;
import org.lwjgl.opengl.GL;
import org.lwjgl.opengl.GLCapabilities;
import org.lwjgl.system.Configuration;
import org.lwjgl.system.MemoryStack;

/**
 * {@link DisplayKind#WINDOW} and {@link DisplayKind#OFFSCREEN}: both are a GLFW window with a GL 3.3 core
 * context; they differ only in GLFW's platform (X11 vs null) and context API (GLX vs EGL).
 *
 * <p>GL entry points are resolved through {@code glfwGetProcAddress}, which asks whichever context API is
 * current (GLX or EGL), so one LWJGL function provider serves both kinds for the life of the process.
 */
final class GlfwDisplay implements Display {
    /** GLFW is process-global: at most one display may own it. Set by open, cleared by close/failure. */
    private static final AtomicBoolean GLFW_IN_USE = new AtomicBoolean();

    private final DisplayKind kind;
    private final String description;
    private final long window;                    // GLFW window handle; 0 after close
    private final Thread owner;                   // the thread with the current context
    private final GLFWErrorCallback errorCallback;
    private boolean closed;                       // owner thread only

    private GlfwDisplay(DisplayKind kind, String description, long window, GLFWErrorCallback errorCallback) {
        this.kind = kind;
        this.description = description;
        this.window = window;
        this.owner = Thread.currentThread();
        this.errorCallback = errorCallback;
    }

    static Display open(DisplayKind kind, DisplayConfig config) {
        if (kind != DisplayKind.WINDOW && kind != DisplayKind.OFFSCREEN) {
            throw new IllegalArgumentException("not a GLFW kind: " + kind);
        }
        String x11Display = System.getenv("DISPLAY");
        if (kind == DisplayKind.WINDOW && (x11Display == null || x11Display.isBlank())) {
            throw new DisplayUnavailableException("no DISPLAY set");
        }
        if (!GLFW_IN_USE.compareAndSet(false, true)) {
            throw new IllegalStateException("a GLFW display is already open in this process; close it first");
        }
        LastError lastError = new LastError();
        GLFWErrorCallback callback = GLFWErrorCallback.create(lastError);
        boolean initialised = false;
        try {
            glfwSetErrorCallback(callback); // cleared again by close(), or below on failure
            int platform = kind == DisplayKind.WINDOW ? GLFW_PLATFORM_X11 : GLFW_PLATFORM_NULL;
            if (!glfwPlatformSupported(platform)) {
                throw new DisplayUnavailableException("this GLFW build lacks the "
                        + (kind == DisplayKind.WINDOW ? "X11" : "null") + " platform");
            }
            glfwInitHint(GLFW_PLATFORM, platform);
            if (!glfwInit()) {
                throw new DisplayUnavailableException("glfwInit failed: " + lastError.describe());
            }
            initialised = true;

            glfwDefaultWindowHints();
            glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
            glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
            glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
            glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
            glfwWindowHint(GLFW_DEPTH_BITS, 24);
            glfwWindowHint(GLFW_STENCIL_BITS, 8);
            glfwWindowHint(GLFW_RESIZABLE, kind == DisplayKind.WINDOW ? GLFW_TRUE : GLFW_FALSE);
            glfwWindowHint(GLFW_CONTEXT_CREATION_API,
                    kind == DisplayKind.WINDOW ? GLFW_NATIVE_CONTEXT_API : GLFW_EGL_CONTEXT_API);

            long window = glfwCreateWindow(config.width(), config.height(), config.title(), 0L, 0L);
            if (window == 0L) {
                throw new DisplayUnavailableException("glfwCreateWindow (GL 3.3 core, "
                        + (kind == DisplayKind.WINDOW ? "GLX" : "EGL") + ") failed: " + lastError.describe());
            }
            glfwMakeContextCurrent(window);
            ensureGlFunctionProvider();
            GLCapabilities caps = GL.createCapabilities();
            if (!caps.OpenGL33) {
                GL.setCapabilities(null);
                glfwMakeContextCurrent(0L);
                glfwDestroyWindow(window);
                throw new DisplayUnavailableException("context is older than OpenGL 3.3");
            }
            if (kind == DisplayKind.WINDOW) {
                glfwSwapInterval(config.vsync() ? 1 : 0);
                glfwSetKeyCallback(window, (w, key, scancode, action, mods) -> {
                    if (key == GLFW_KEY_ESCAPE && action == GLFW_PRESS) {
                        glfwSetWindowShouldClose(w, true);
                    }
                });
            }
            String description = kind == DisplayKind.WINDOW
                    ? "GLFW window on X11 (DISPLAY=" + x11Display + "), GLX context"
                    : "GLFW null platform (no X server), EGL context";
            return new GlfwDisplay(kind, description, window, callback);
        } catch (RuntimeException | Error e) {
            if (initialised) {
                glfwTerminate();
            }
            glfwSetErrorCallback(null);
            callback.free();
            GLFW_IN_USE.set(false);
            throw e;
        }
    }

    /** Resolves GL functions via GLFW (GLX or EGL, whichever is current); done once per process. */
    private static synchronized void ensureGlFunctionProvider() {
        // Must be set before LWJGL's GL class initialises, or it loads libGLX on its own.
        Configuration.OPENGL_EXPLICIT_INIT.set(true);
        if (GL.getFunctionProvider() == null) {
            GL.create(GLFW::glfwGetProcAddress);
        }
    }

    @Override public DisplayKind kind() { return kind; }
    @Override public String description() { return description; }

    @Override
    public int framebufferWidth() {
        return framebufferSize()[0];
    }

    @Override
    public int framebufferHeight() {
        return framebufferSize()[1];
    }

    private int[] framebufferSize() {
        checkOpen();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            var w = stack.mallocInt(1);
            var h = stack.mallocInt(1);
            glfwGetFramebufferSize(window, w, h);
            return new int[] {w.get(0), h.get(0)};
        }
    }

    @Override
    public boolean shouldClose() {
        checkOpen();
        return glfwWindowShouldClose(window);
    }

    @Override
    public void requestClose() {
        checkOpen();
        glfwSetWindowShouldClose(window, true);
    }

    @Override
    public void pollEvents() {
        checkOpen();
        glfwPollEvents();
    }

    @Override
    public void swapBuffers() {
        checkOpen();
        glfwSwapBuffers(window);
    }

    @Override
    public long glfwWindow() {
        return closed ? 0L : window;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        checkThread();
        closed = true;
        GL.setCapabilities(null);
        glfwMakeContextCurrent(0L);
        Callbacks.glfwFreeCallbacks(window);
        glfwDestroyWindow(window);
        glfwTerminate();
        glfwSetErrorCallback(null);
        errorCallback.free();
        GLFW_IN_USE.set(false);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("display is closed");
        }
        checkThread();
    }

    private void checkThread() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("display used from " + Thread.currentThread().getName()
                    + " but owned by " + owner.getName() + " (GLFW and GL calls stay on the opening thread)");
        }
    }

    /** Remembers GLFW's most recent error so failures can say why. */
    private static final class LastError implements GLFWErrorCallbackI {
        private volatile String message; // written by GLFW's callback on the calling thread

        @Override
        public void invoke(int error, long description) {
            message = GLFWErrorCallback.getDescription(description) + " (0x" + Integer.toHexString(error) + ")";
        }

        String describe() {
            String m = message;
            return m == null ? "no GLFW error reported" : m;
        }
    }
}
