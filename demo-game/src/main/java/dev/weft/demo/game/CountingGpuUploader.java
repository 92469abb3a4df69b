package dev.weft.demo.game;

import dev.weft.assets.GpuUploader;
import dev.weft.assets.MeshSource;
import dev.weft.assets.TextureSource;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.render.RendererGpuUploader;

/**
 * The streamed chunks' {@link GpuUploader}: uploads through the game's {@link Renderer}
 * ({@link RendererGpuUploader#always}, so headless runs upload too) and counts the GPU objects alive, so
 * a run can show it freed every one. Main thread only, like the renderer, so the counters are plain fields.
 */
final class CountingGpuUploader implements GpuUploader {
    private final GpuUploader renderer;
    private long uploaded;
    private long freed;

    CountingGpuUploader(Renderer renderer) {
        this.renderer = RendererGpuUploader.always(renderer);
    }

    @Override
    public Object uploadTexture(TextureSource pixels) {
        Object t = renderer.uploadTexture(pixels);
        uploaded++;
        return t;
    }

    @Override
    public Object uploadMesh(MeshSource mesh) {
        Object m = renderer.uploadMesh(mesh);
        uploaded++;
        return m;
    }

    @Override
    public void free(Object handle) {
        renderer.free(handle);
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
