package dev.weft.demo.render;

import dev.weft.assets.TextureSource;

import dev.weft.assets.MeshSource;

import dev.weft.demo.window.Display;
import java.util.Objects;
import java.util.Optional;

/** The renderer for {@code DisplayKind.NONE}: validates and counts like {@link GlRenderer}, draws nothing. */
final class HeadlessRenderer implements Renderer {
    /** Generous stand-in for GL_MAX_TEXTURE_SIZE, so oversize textures still fail without GL. */
    private static final int MAX_TEXTURE_SIZE = 16384;

    private final Thread owner = Thread.currentThread();
    private long drawCalls;
    private boolean closed;

    HeadlessRenderer(Display display) {
        Objects.requireNonNull(display, "display");
    }

    @Override public boolean hasGl() { return false; }
    @Override public String description() { return "headless (no GL, draws nothing)"; }

    @Override
    public Mesh uploadMesh(MeshSource source) {
        check();
        int vertices = UploadChecks.checkMesh(source);
        return new Mesh(this, 0, 0, 0, vertices, source.indices().remaining());
    }

    @Override
    public Texture uploadTexture(TextureSource source) {
        check();
        UploadChecks.checkTexture(source, MAX_TEXTURE_SIZE);
        return new Texture(this, 0, source.width(), source.height());
    }

    @Override
    public void release(Mesh mesh) {
        check();
        ownedBy(mesh.owner);
        mesh.released = true;
    }

    @Override
    public void release(Texture texture) {
        check();
        ownedBy(texture.owner);
        texture.released = true;
    }

    @Override public void setClearColour(float r, float g, float b) { check(); }
    @Override public void beginFrame() { check(); }

    @Override
    public void drawScene(Camera camera, DirectionalLight light, DrawList draws) {
        check();
        Objects.requireNonNull(camera, "camera");
        Objects.requireNonNull(light, "light");
        Objects.requireNonNull(draws, "draws");
        for (int i = 0, n = draws.size(); i < n; i++) {
            Mesh mesh = draws.mesh(i);
            Texture texture = draws.texture(i);
            ownedBy(mesh.owner);
            ownedBy(texture.owner);
            if (mesh.released || texture.released) {
                throw new IllegalStateException("drawing a released resource: draw " + i + " of " + draws
                        + ", mesh " + mesh + ", texture " + texture);
            }
            drawCalls++;
        }
    }

    @Override
    public void drawLoadingScreen(float fraction) {
        check();
        drawCalls++;
    }

    @Override
    public void drawFrameGraph(FrameTimeGraph graph) {
        check();
        Objects.requireNonNull(graph, "graph");
        drawCalls++;
    }

    @Override
    public Optional<RgbaImage> readFrame() {
        check();
        return Optional.empty();
    }

    @Override
    public long drawCalls() {
        return drawCalls;
    }

    @Override
    public void close() {
        closed = true;
    }

    private void ownedBy(Renderer r) {
        if (r != this) {
            throw new IllegalArgumentException("resource belongs to another renderer");
        }
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("renderer is closed");
        }
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("renderer used from " + Thread.currentThread().getName()
                    + " but owned by " + owner.getName());
        }
    }
}
