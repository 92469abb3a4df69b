package dev.weft.demo.game;

import dev.weft.assets.GpuUploader;
import dev.weft.assets.MeshSource;
import dev.weft.assets.TextureSource;
import dev.weft.demo.render.Mesh;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.render.Texture;

/**
 * The streamed chunks' {@link GpuUploader}: uploads through the game's {@link Renderer} (headless too:
 * the headless renderer validates and counts uploads like GL, so a headless run exercises the same
 * main-thread jobs) and counts the GPU objects alive, so a run can show it freed every one.
 * Main thread only, like the renderer, so the counters are plain fields.
 */
final class CountingGpuUploader implements GpuUploader {
    private final Renderer renderer;
    private long uploaded;
    private long freed;

    CountingGpuUploader(Renderer renderer) {
        this.renderer = renderer;
    }

    @Override
    public Object uploadTexture(TextureSource pixels) {
        Texture t = renderer.uploadTexture(pixels);
        uploaded++;
        return t;
    }

    @Override
    public Object uploadMesh(MeshSource mesh) {
        Mesh m = renderer.uploadMesh(mesh);
        uploaded++;
        return m;
    }

    @Override
    public void free(Object handle) {
        switch (handle) {
            case Texture t -> renderer.release(t);
            case Mesh m -> renderer.release(m);
            default -> throw new IllegalArgumentException("not a handle of this renderer: " + handle);
        }
        freed++;
    }

    long uploaded() {
        return uploaded;
    }

    /** GPU objects uploaded and not freed yet. */
    long live() {
        return uploaded - freed;
    }
}
