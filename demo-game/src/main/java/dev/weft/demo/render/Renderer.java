package dev.weft.demo.render;

import dev.weft.assets.TextureSource;

import dev.weft.assets.MeshSource;

import dev.weft.demo.window.Display;
import java.util.List;
import java.util.Optional;

/**
 * Draws the demo: lit textured meshes, the loading screen and the frame-time graph.
 *
 * <p>Threading: every method runs on the display's thread (the one holding the GL context; in the demo,
 * the main thread). Loader jobs prepare {@link MeshSource}/{@link TextureSource} buffers on workers and
 * hand the upload to that thread, e.g. {@code jobs.onMainThread(() -> renderer.uploadMesh(data))}, which
 * the loop drains once per frame with {@code runMainThreadJobs}.
 *
 * <p>One frame:
 * <pre>{@code
 * display.pollEvents();
 * renderer.beginFrame();
 * if (loading) renderer.drawLoadingScreen(progress);
 * else renderer.drawScene(camera, light, draws);          // a DrawList, refilled every frame
 * renderer.drawFrameGraph(graph);
 * Optional<RgbaImage> shot = wantShot ? renderer.readFrame() : Optional.empty();   // before the swap
 * display.swapBuffers();
 * }</pre>
 *
 * <p>{@link #create} returns a GL 3.3 renderer for a display with GL and otherwise a headless one that
 * checks and counts everything but draws nothing, so the same loop runs with {@code --display none}.
 */
public interface Renderer extends AutoCloseable {

    /** A renderer for this display; call on the display's thread. */
    static Renderer create(Display display) {
        return display.hasGl() ? new GlRenderer(display) : new HeadlessRenderer(display);
    }

    /** True when this renderer really draws (has a GL context). */
    boolean hasGl();

    /** One line for logs: GL version and renderer string, or "headless". */
    String description();

    /** Uploads an indexed triangle mesh into a VAO/VBO/EBO. The source buffers may be reused afterwards. */
    Mesh uploadMesh(MeshSource source);

    /** Uploads an RGBA8 texture and builds its mipmaps. The source buffer may be reused afterwards. */
    Texture uploadTexture(TextureSource source);

    /** Frees a mesh's GPU memory now; idempotent. */
    void release(Mesh mesh);

    /** Frees a texture's GPU memory now; idempotent. */
    void release(Texture texture);

    /** Sets the colour {@link #beginFrame()} clears to (linear RGB, 0..1). */
    void setClearColour(float r, float g, float b);

    /** Starts a frame: viewport = current framebuffer size, colour and depth cleared. */
    void beginFrame();

    /**
     * Draws meshes with the lit shader (directional light + ambient) from the camera's point of view,
     * in the list's order (sort it by mesh and texture to save binds). Allocates nothing.
     */
    void drawScene(Camera camera, DirectionalLight light, DrawList draws);

    /** {@link #drawScene(Camera, DirectionalLight, DrawList)} for a list of commands; copies them first. */
    default void drawScene(Camera camera, DirectionalLight light, List<DrawCommand> commands) {
        drawScene(camera, light, DrawList.of(commands));
    }

    /** Draws the full-screen loading screen with a progress bar filled to {@code fraction} (0..1). */
    void drawLoadingScreen(float fraction);

    /** Draws the frame-time graph (bars per frame and the budget line) in the bottom-left corner. */
    void drawFrameGraph(FrameTimeGraph graph);

    /**
     * Reads back what was drawn since {@link #beginFrame()}, right side up. Call before
     * {@code Display.swapBuffers()}. Empty when there is no GL.
     */
    Optional<RgbaImage> readFrame();

    /** Draw calls issued (or, headless, that would have been) since creation. */
    long drawCalls();

    /** Frees every mesh, texture, shader and buffer still alive. Idempotent. */
    @Override
    void close();
}
