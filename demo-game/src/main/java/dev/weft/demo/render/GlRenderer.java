package dev.weft.demo.render;

import dev.weft.assets.TextureSource;

import dev.weft.assets.MeshSource;

import static org.lwjgl.opengl.GL33C.*;

import dev.weft.demo.window.Display;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.joml.Matrix3f;
import org.joml.Matrix4f;
import org.joml.Vector3fc;
import org.lwjgl.opengl.GL;
import org.lwjgl.system.MemoryUtil;

/**
 * The OpenGL 3.3 core {@link Renderer}.
 *
 * <h2>Implementation overview</h2>
 *
 * <p><b>Threading.</b> Constructed on the thread whose context is current (the display's owner) and checks
 * on every public call that it still is; there is no locking because nothing here is shared.
 *
 * <p><b>Resources.</b> Every {@link Mesh} (VAO + VBO + EBO) and {@link Texture} made is kept in an
 * identity set, so {@code release} is idempotent, drawing a released or foreign handle fails loudly, and
 * {@link #close()} frees whatever the game forgot. Uploads never move the caller's buffer positions; a
 * heap or non-native-order buffer is copied to native memory first because GL reads raw addresses.
 *
 * <p><b>Passes and GL state.</b> {@link #beginFrame()} fixes the viewport to the framebuffer size for the
 * whole frame. The scene pass enables depth test and back-face culling with blending off; overlay passes
 * (loading screen, graph) disable both and blend with {@code glBlendFuncSeparate(SRC_ALPHA,
 * ONE_MINUS_SRC_ALPHA, ONE, ONE_MINUS_SRC_ALPHA)} so destination alpha stays 1. Each pass sets all the
 * state it relies on, so passes can run in any order.
 *
 * <p><b>Overlays</b> are pixel-space rectangles (origin top-left, y down, as in {@link OverlayLayout})
 * collected into one streamed vertex buffer and drawn with one call per pass.
 *
 * <p><b>Read-back.</b> {@link #readFrame()} reads the draw buffer (the back buffer) before the swap, with
 * pack alignment 1, then {@link RgbaImage#fromBottomUpRows} flips it top-row-first.
 */
final class GlRenderer implements Renderer {
    private final Display display;
    private final Thread owner;
    private final String description;
    private final int maxTextureSize;

    private final ShaderProgram lit;
    private final int litModel;
    private final int litViewProjection;
    private final int litNormalMatrix;
    private final int litAlbedo;
    private final int litLightDirection;
    private final int litLightColour;
    private final int litAmbient;

    private final ShaderProgram overlay;
    private final int overlayViewportSize;
    private final OverlayBatch batch;

    private final Set<Mesh> liveMeshes = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Texture> liveTextures = Collections.newSetFromMap(new IdentityHashMap<>());

    private final Matrix4f viewProjection = new Matrix4f();
    private final Matrix3f normalMatrix = new Matrix3f();
    private final Matrix4f modelScratch = new Matrix4f();
    private FloatBuffer mat4Scratch;  // native, 16 floats; freed in close()
    private FloatBuffer mat3Scratch;  // native, 9 floats

    private float clearR = 0.05f;
    private float clearG = 0.06f;
    private float clearB = 0.09f;
    private int viewportWidth;        // set by beginFrame; 0 before the first frame
    private int viewportHeight;
    private long drawCalls;
    private boolean closed;

    GlRenderer(Display display) {
        this.display = Objects.requireNonNull(display, "display");
        this.owner = Thread.currentThread();
        GL.getCapabilities(); // throws IllegalStateException when no context is current on this thread

        lit = new ShaderProgram("lit", Shaders.LIT_VERTEX, Shaders.LIT_FRAGMENT);
        litModel = lit.uniform("uModel");
        litViewProjection = lit.uniform("uViewProjection");
        litNormalMatrix = lit.uniform("uNormalMatrix");
        litAlbedo = lit.uniform("uAlbedo");
        litLightDirection = lit.uniform("uLightDirection");
        litLightColour = lit.uniform("uLightColour");
        litAmbient = lit.uniform("uAmbient");

        overlay = new ShaderProgram("overlay", Shaders.OVERLAY_VERTEX, Shaders.OVERLAY_FRAGMENT);
        overlayViewportSize = overlay.uniform("uViewportSize");
        batch = new OverlayBatch(512);

        mat4Scratch = MemoryUtil.memAllocFloat(16);
        mat3Scratch = MemoryUtil.memAllocFloat(9);
        maxTextureSize = glGetInteger(GL_MAX_TEXTURE_SIZE);
        int depthBits = glGetFramebufferAttachmentParameteri(GL_FRAMEBUFFER, GL_DEPTH,
                GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE);
        description = "OpenGL " + glGetString(GL_VERSION) + " on " + glGetString(GL_RENDERER)
                + ", depth " + depthBits + " bits";
        checkGl("renderer setup");
    }

    @Override public boolean hasGl() { return true; }
    @Override public String description() { return description; }

    @Override
    public Mesh uploadMesh(MeshSource source) {
        check();
        int vertexCount = UploadChecks.checkMesh(source);
        FloatBuffer vertices = source.vertices();
        IntBuffer indices = source.indices();
        FloatBuffer v = UploadChecks.usableInPlace(vertices) ? vertices : nativeCopy(vertices);
        IntBuffer i = UploadChecks.usableInPlace(indices) ? indices : nativeCopy(indices);
        try {
            int vao = glGenVertexArrays();
            int vbo = glGenBuffers();
            int ebo = glGenBuffers();
            glBindVertexArray(vao);
            glBindBuffer(GL_ARRAY_BUFFER, vbo);
            glBufferData(GL_ARRAY_BUFFER, v, GL_STATIC_DRAW);
            glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo); // recorded in the VAO
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, i, GL_STATIC_DRAW);
            int stride = MeshSource.FLOATS_PER_VERTEX * Float.BYTES;
            glVertexAttribPointer(0, 3, GL_FLOAT, false, stride, 0L);
            glEnableVertexAttribArray(0);
            glVertexAttribPointer(1, 3, GL_FLOAT, false, stride, 3L * Float.BYTES);
            glEnableVertexAttribArray(1);
            glVertexAttribPointer(2, 2, GL_FLOAT, false, stride, 6L * Float.BYTES);
            glEnableVertexAttribArray(2);
            glBindVertexArray(0);
            glBindBuffer(GL_ARRAY_BUFFER, 0);
            checkGl("uploadMesh");
            Mesh mesh = new Mesh(this, vao, vbo, ebo, vertexCount, indices.remaining());
            liveMeshes.add(mesh);
            return mesh;
        } finally {
            if (v != vertices) {
                MemoryUtil.memFree(v);
            }
            if (i != indices) {
                MemoryUtil.memFree(i);
            }
        }
    }

    @Override
    public Texture uploadTexture(TextureSource source) {
        check();
        UploadChecks.checkTexture(source, maxTextureSize);
        ByteBuffer rgba = source.rgba();
        ByteBuffer pixels = rgba.isDirect() ? rgba : nativeCopy(rgba);
        try {
            int id = glGenTextures();
            glBindTexture(GL_TEXTURE_2D, id);
            glPixelStorei(GL_UNPACK_ALIGNMENT, 4); // RGBA8 rows are always 4-byte aligned
            glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, source.width(), source.height(), 0, GL_RGBA,
                    GL_UNSIGNED_BYTE, pixels);
            glGenerateMipmap(GL_TEXTURE_2D);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
            glBindTexture(GL_TEXTURE_2D, 0);
            checkGl("uploadTexture");
            Texture texture = new Texture(this, id, source.width(), source.height());
            liveTextures.add(texture);
            return texture;
        } finally {
            if (pixels != rgba) {
                MemoryUtil.memFree(pixels);
            }
        }
    }

    @Override
    public void release(Mesh mesh) {
        check();
        owned(mesh.owner);
        if (liveMeshes.remove(mesh)) {
            deleteMesh(mesh);
        }
    }

    @Override
    public void release(Texture texture) {
        check();
        owned(texture.owner);
        if (liveTextures.remove(texture)) {
            deleteTexture(texture);
        }
    }

    @Override
    public void setClearColour(float r, float g, float b) {
        check();
        clearR = r;
        clearG = g;
        clearB = b;
    }

    @Override
    public void beginFrame() {
        check();
        viewportWidth = Math.max(1, display.framebufferWidth());
        viewportHeight = Math.max(1, display.framebufferHeight());
        glViewport(0, 0, viewportWidth, viewportHeight);
        glDepthMask(true);
        glColorMask(true, true, true, true);
        glClearColor(clearR, clearG, clearB, 1f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    }

    @Override
    public void drawScene(Camera camera, DirectionalLight light, DrawList draws) {
        checkFrame();
        Objects.requireNonNull(camera, "camera");
        Objects.requireNonNull(light, "light");
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        glFrontFace(GL_CCW);
        glDisable(GL_BLEND);

        lit.use();
        camera.viewProjection((float) viewportWidth / viewportHeight, viewProjection);
        glUniformMatrix4fv(litViewProjection, false, viewProjection.get(mat4Scratch));
        glUniform1i(litAlbedo, 0);
        uniform3(litLightDirection, light.direction());
        uniform3(litLightColour, light.colour());
        uniform3(litAmbient, light.ambient());
        glActiveTexture(GL_TEXTURE0);

        Mesh boundMesh = null;
        Texture boundTexture = null;
        Objects.requireNonNull(draws, "draws");
        for (int i = 0, n = draws.size(); i < n; i++) {
            Mesh mesh = draws.mesh(i);
            Texture texture = draws.texture(i);
            if (mesh != boundMesh) {
                requireLive(mesh);
                glBindVertexArray(mesh.vao);
                boundMesh = mesh;
            }
            if (texture != boundTexture) {
                requireLive(texture);
                glBindTexture(GL_TEXTURE_2D, texture.id);
                boundTexture = texture;
            }
            Matrix4f model = draws.model(i, modelScratch);
            glUniformMatrix4fv(litModel, false, model.get(mat4Scratch));
            model.normal(normalMatrix);
            glUniformMatrix3fv(litNormalMatrix, false, normalMatrix.get(mat3Scratch));
            glDrawElements(GL_TRIANGLES, mesh.indexCount(), GL_UNSIGNED_INT, 0L);
            drawCalls++;
        }
        glBindVertexArray(0);
        glBindTexture(GL_TEXTURE_2D, 0);
    }

    @Override
    public void drawLoadingScreen(float fraction) {
        checkFrame();
        beginOverlay();
        int w = viewportWidth;
        int h = viewportHeight;
        batch.rect(0, 0, w, h, OverlayLayout.LOADING_BACKGROUND);
        Rect frame = OverlayLayout.loadingBarFrame(w, h);
        int f = OverlayLayout.LOADING_FRAME_PX;
        batch.rect(frame, OverlayLayout.LOADING_FRAME);
        batch.rect(frame.x() + f, frame.y() + f, frame.width() - 2 * f, frame.height() - 2 * f,
                OverlayLayout.LOADING_BACKGROUND);
        Rect track = OverlayLayout.loadingBarTrack(w, h);
        batch.rect(track, OverlayLayout.LOADING_TRACK);
        int fill = OverlayLayout.loadingFillWidth(track, fraction);
        batch.rect(track.x(), track.y(), fill, track.height(), OverlayLayout.LOADING_FILL);
        if (fill >= 4 && fill < track.width()) {
            batch.rect(track.x() + fill - 2, track.y(), 2, track.height(), OverlayLayout.LOADING_FILL_EDGE);
        }
        flushOverlay();
    }

    @Override
    public void drawFrameGraph(FrameTimeGraph graph) {
        checkFrame();
        Objects.requireNonNull(graph, "graph");
        beginOverlay();
        Rect panel = OverlayLayout.graphPanel(viewportWidth, viewportHeight, graph.capacity());
        Rect plot = OverlayLayout.graphPlot(panel);
        batch.rect(panel, OverlayLayout.GRAPH_BACKGROUND);
        double scaleMillis = OverlayLayout.graphScaleMillis(graph);
        float barWidth = (float) plot.width() / graph.capacity();
        int n = graph.size();
        int firstSlot = graph.capacity() - n; // newest sample at the right edge
        for (int i = 0; i < n; i++) {
            float ms = graph.millisAt(i);
            float barHeight = (float) (Math.min(ms / scaleMillis, 1.0) * plot.height());
            batch.rect(plot.x() + (firstSlot + i) * barWidth, plot.bottom() - barHeight, barWidth, barHeight,
                    OverlayLayout.graphBarColour(ms, graph.budgetMillis()));
        }
        float budgetY = (float) (plot.bottom() - graph.budgetMillis() / scaleMillis * plot.height());
        int line = OverlayLayout.GRAPH_BUDGET_LINE_PX;
        batch.rect(plot.x(), budgetY - line / 2f, plot.width(), line, OverlayLayout.GRAPH_BUDGET);
        flushOverlay();
    }

    @Override
    public Optional<RgbaImage> readFrame() {
        checkFrame();
        int w = viewportWidth;
        int h = viewportHeight;
        ByteBuffer raw = MemoryUtil.memAlloc(w * h * 4);
        try {
            glPixelStorei(GL_PACK_ALIGNMENT, 1);
            glReadBuffer(glGetInteger(GL_DRAW_BUFFER));
            glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, raw);
            checkGl("readFrame");
            return Optional.of(RgbaImage.fromBottomUpRows(w, h, raw));
        } finally {
            MemoryUtil.memFree(raw);
        }
    }

    @Override
    public long drawCalls() {
        return drawCalls;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        checkThread();
        closed = true;
        for (Mesh m : new ArrayList<>(liveMeshes)) {
            deleteMesh(m);
        }
        liveMeshes.clear();
        for (Texture t : new ArrayList<>(liveTextures)) {
            deleteTexture(t);
        }
        liveTextures.clear();
        batch.delete();
        lit.delete();
        overlay.delete();
        glUseProgram(0);
        MemoryUtil.memFree(mat4Scratch);
        MemoryUtil.memFree(mat3Scratch);
        mat4Scratch = null;
        mat3Scratch = null;
    }

    // --- helpers -------------------------------------------------------------------------------------

    private void beginOverlay() {
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_CULL_FACE);
        glEnable(GL_BLEND);
        glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        overlay.use();
        glUniform2f(overlayViewportSize, viewportWidth, viewportHeight);
    }

    private void flushOverlay() {
        batch.flush();
        drawCalls++;
        glDisable(GL_BLEND);
    }

    private void uniform3(int location, Vector3fc v) {
        glUniform3f(location, v.x(), v.y(), v.z());
    }

    private static void deleteMesh(Mesh m) {
        glDeleteVertexArrays(m.vao);
        glDeleteBuffers(m.vbo);
        glDeleteBuffers(m.ebo);
        m.released = true;
    }

    private static void deleteTexture(Texture t) {
        glDeleteTextures(t.id);
        t.released = true;
    }

    private void requireLive(Mesh mesh) {
        owned(mesh.owner);
        if (mesh.released) {
            throw new IllegalStateException("drawing a released mesh: " + mesh);
        }
    }

    private void requireLive(Texture texture) {
        owned(texture.owner);
        if (texture.released) {
            throw new IllegalStateException("drawing a released texture: " + texture);
        }
    }

    private void owned(Renderer r) {
        if (r != this) {
            throw new IllegalArgumentException("resource belongs to another renderer");
        }
    }

    private static FloatBuffer nativeCopy(FloatBuffer src) {
        FloatBuffer copy = MemoryUtil.memAllocFloat(src.remaining());
        copy.put(src.duplicate()).flip();
        return copy;
    }

    private static IntBuffer nativeCopy(IntBuffer src) {
        IntBuffer copy = MemoryUtil.memAllocInt(src.remaining());
        copy.put(src.duplicate()).flip();
        return copy;
    }

    private static ByteBuffer nativeCopy(ByteBuffer src) {
        ByteBuffer copy = MemoryUtil.memAlloc(src.remaining());
        copy.put(src.duplicate()).flip();
        return copy;
    }

    /** Throws if GL reported errors since the last check (bounded, in case the context is lost). */
    static void checkGl(String where) {
        StringBuilder errors = null;
        for (int i = 0, e; i < 8 && (e = glGetError()) != GL_NO_ERROR; i++) {
            errors = errors == null ? new StringBuilder() : errors.append(", ");
            errors.append("0x").append(Integer.toHexString(e));
        }
        if (errors != null) {
            throw new IllegalStateException(where + ": GL error " + errors);
        }
    }

    private void checkFrame() {
        check();
        if (viewportWidth == 0) {
            throw new IllegalStateException("call beginFrame() first");
        }
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("renderer is closed");
        }
        checkThread();
    }

    private void checkThread() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("renderer used from " + Thread.currentThread().getName()
                    + " but its GL context belongs to " + owner.getName());
        }
    }
}
