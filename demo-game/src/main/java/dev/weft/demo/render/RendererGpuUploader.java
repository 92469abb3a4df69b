package dev.weft.demo.render;

import dev.weft.assets.GpuUploader;
import dev.weft.assets.MeshSource;
import dev.weft.assets.TextureSource;

/**
 * The asset library's {@link GpuUploader} over this game's {@link Renderer}: handles are the renderer's
 * {@link Texture} and {@link Mesh}. For a renderer without GL {@link #of} gives null, the asset manager's
 * headless path (nothing uploaded, CPU data kept until unload). Main thread only, like the renderer.
 */
public final class RendererGpuUploader implements GpuUploader {
    private final Renderer renderer;

    private RendererGpuUploader(Renderer renderer) {
        this.renderer = renderer;
    }

    /** An uploader over {@code renderer}, or null (no uploads) when it has no GL. */
    public static GpuUploader of(Renderer renderer) {
        return renderer != null && renderer.hasGl() ? new RendererGpuUploader(renderer) : null;
    }

    /**
     * An uploader over {@code renderer} even when it has no GL: the headless renderer validates and counts
     * uploads like GL, so a headless run goes through the same main-thread upload jobs (chunk streaming).
     */
    public static GpuUploader always(Renderer renderer) {
        return new RendererGpuUploader(java.util.Objects.requireNonNull(renderer, "renderer"));
    }

    @Override
    public Object uploadTexture(TextureSource pixels) {
        return renderer.uploadTexture(pixels);
    }

    @Override
    public Object uploadMesh(MeshSource mesh) {
        return renderer.uploadMesh(mesh);
    }

    @Override
    public void free(Object handle) {
        switch (handle) {
            case Texture t -> renderer.release(t);
            case Mesh m -> renderer.release(m);
            default -> throw new IllegalArgumentException("not a handle of this renderer: " + handle);
        }
    }
}
