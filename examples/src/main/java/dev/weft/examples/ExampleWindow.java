package dev.weft.examples;

import static org.lwjgl.glfw.GLFW.*;

import org.lwjgl.glfw.GLFW;
import org.lwjgl.glfw.GLFWErrorCallback;
import org.lwjgl.opengl.GL;
import org.lwjgl.system.Configuration;

/**
 * A GLFW window with a current OpenGL 3.3 core context: on X11 when asked for a visible window, else on
 * GLFW's null platform with an EGL context (Mesa), which renders with no X server, as in CI.
 */
final class ExampleWindow implements AutoCloseable {
    final long handle;
    final String description;
    private final GLFWErrorCallback errors;

    private ExampleWindow(long handle, String description, GLFWErrorCallback errors) {
        this.handle = handle;
        this.description = description;
        this.errors = errors;
    }

    /**
     * Opens the window and makes its context current on this thread.
     *
     * @throws IllegalStateException naming GLFW's error when there is no display or no GL driver
     */
    static ExampleWindow open(boolean visible, int widthPixels, int heightPixels) {
        StringBuilder lastError = new StringBuilder();
        GLFWErrorCallback errors = GLFWErrorCallback.create((code, description) ->
                lastError.append("GLFW error 0x").append(Integer.toHexString(code)).append(": ")
                        .append(GLFWErrorCallback.getDescription(description)).append("; "));
        glfwSetErrorCallback(errors);
        int platform = visible ? GLFW_PLATFORM_X11 : GLFW_PLATFORM_NULL;
        glfwInitHint(GLFW_PLATFORM, platform);
        if (!glfwInit()) {
            errors.free();
            throw new IllegalStateException("glfwInit failed (" + (visible ? "X11: is DISPLAY set?" : "null platform")
                    + "): " + lastError);
        }
        glfwDefaultWindowHints();
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_CONTEXT_CREATION_API, visible ? GLFW_NATIVE_CONTEXT_API : GLFW_EGL_CONTEXT_API);
        long window = glfwCreateWindow(widthPixels, heightPixels, "Weft LWJGL loop example", 0L, 0L);
        if (window == 0L) {
            glfwTerminate();
            errors.free();
            throw new IllegalStateException("glfwCreateWindow (GL 3.3 core, " + (visible ? "GLX" : "EGL")
                    + ") failed; headless runs need Mesa's EGL (Debian: libegl1 libegl-mesa0): " + lastError);
        }
        glfwMakeContextCurrent(window);
        // GL functions come from GLFW's loader (GLX or EGL, whichever made the context), not libGL.
        Configuration.OPENGL_EXPLICIT_INIT.set(true);
        GL.create(GLFW::glfwGetProcAddress);
        GL.createCapabilities();
        String description = (visible ? "X11 window, GLX" : "GLFW null platform, EGL") + " context";
        return new ExampleWindow(window, description, errors);
    }

    @Override
    public void close() {
        GL.setCapabilities(null);
        glfwMakeContextCurrent(0L);
        glfwDestroyWindow(handle);
        glfwTerminate();
        glfwSetErrorCallback(null);
        errors.free();
    }
}
