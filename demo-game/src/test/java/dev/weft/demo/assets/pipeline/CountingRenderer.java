package dev.weft.demo.assets.pipeline;

import dev.weft.demo.render.Camera;
import dev.weft.demo.render.DirectionalLight;
import dev.weft.demo.render.DrawList;
import dev.weft.demo.render.FrameTimeGraph;
import dev.weft.demo.render.Mesh;
import dev.weft.demo.render.MeshSource;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.render.RgbaImage;
import dev.weft.demo.render.Texture;
import dev.weft.demo.render.TextureSource;
import dev.weft.demo.window.Display;
import dev.weft.demo.window.DisplayConfig;
import dev.weft.demo.window.DisplayKind;
import dev.weft.demo.window.Displays;
import java.util.Optional;

/**
 * The headless renderer (which checks uploads and the owning thread like the GL one) presented as a
 * renderer with GL, so the asset manager takes its upload path; counts GPU objects made and freed.
 * Create and use it on the test's thread, which then is the main thread.
 */
final class CountingRenderer implements Renderer {
    private final Display display = Displays.open(DisplayConfig.defaults().withPreferred(DisplayKind.NONE), n -> { });
    private final Renderer inner = Renderer.create(display);
    int meshesUploaded, texturesUploaded, meshesReleased, texturesReleased;   // main thread only

    /** GPU objects made and not freed. */
    int live() {
        return meshesUploaded + texturesUploaded - meshesReleased - texturesReleased;
    }

    @Override public boolean hasGl() { return true; }
    @Override public String description() { return "counting " + inner.description(); }

    @Override
    public Mesh uploadMesh(MeshSource source) {
        Mesh m = inner.uploadMesh(source);
        meshesUploaded++;
        return m;
    }

    @Override
    public Texture uploadTexture(TextureSource source) {
        Texture t = inner.uploadTexture(source);
        texturesUploaded++;
        return t;
    }

    @Override
    public void release(Mesh mesh) {
        if (!mesh.isReleased()) {
            meshesReleased++;
        }
        inner.release(mesh);
    }

    @Override
    public void release(Texture texture) {
        if (!texture.isReleased()) {
            texturesReleased++;
        }
        inner.release(texture);
    }

    @Override public void setClearColour(float r, float g, float b) { inner.setClearColour(r, g, b); }
    @Override public void beginFrame() { inner.beginFrame(); }
    @Override public void drawScene(Camera c, DirectionalLight l, DrawList draws) { inner.drawScene(c, l, draws); }
    @Override public void drawLoadingScreen(float fraction) { inner.drawLoadingScreen(fraction); }
    @Override public void drawFrameGraph(FrameTimeGraph graph) { inner.drawFrameGraph(graph); }
    @Override public Optional<RgbaImage> readFrame() { return inner.readFrame(); }
    @Override public long drawCalls() { return inner.drawCalls(); }

    @Override
    public void close() {
        inner.close();
        display.close();
    }
}
