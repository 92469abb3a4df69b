package dev.weft.assets;

/**
 * How an {@link AssetManager} puts decoded assets on the GPU: the game implements it over its renderer
 * (demo-game's {@code RendererGpuUploader} over {@code GlRenderer}), so this library depends on no
 * graphics API. Every method is called on the main thread only, from a main-thread job
 * ({@link dev.weft.JobSystem#onMainThread}), because GL contexts belong to one thread.
 *
 * <p>Handles are opaque: the manager stores what an upload returns, hands it out through
 * {@link LoadedTexture#gpu()} / {@link LoadedMesh#gpu()}, and passes it back to {@link #free} once when
 * the asset is unloaded. A manager built without an uploader (the headless path) uploads nothing and
 * keeps the CPU data until unload.
 */
public interface GpuUploader {
    /**
     * Uploads RGBA8 pixels; returns the game's handle (never null). Main thread only.
     *
     * @param pixels the texture's size and pixels
     * @return the game's handle for the texture, never null
     */
    Object uploadTexture(TextureSource pixels);

    /**
     * Uploads interleaved vertices and indices ({@link MeshSource}); returns the game's handle. Main thread
     * only.
     *
     * @param mesh the mesh's vertices and indices
     * @return the game's handle for the mesh
     */
    Object uploadMesh(MeshSource mesh);

    /**
     * Frees a handle returned by one of the upload methods, exactly once. Main thread only.
     *
     * @param handle a handle an upload method returned
     */
    void free(Object handle);
}
