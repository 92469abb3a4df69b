package dev.weft.assets;

import java.util.Optional;

/**
 * A texture: its size, its GPU handle when the manager uploads (through a {@link GpuUploader}), and its CPU pixels
 * until they are freed: right after the upload, or at unload when headless.
 *
 * <p>Threading: immutable except for the CPU pixels, whose {@link TextureData} the manager closes once;
 * {@link #pixels()} throws after that. {@link #gpu()} may only be used on the main thread.
 */
public final class LoadedTexture implements LoadedAsset {
    private final AssetId id;
    private final int width;
    private final int height;
    private final TextureData data;           // stb pixels (native memory), or the placeholder's (GC-managed)
    private final boolean placeholder;
    private final Object gpu;                 // null when nothing was uploaded

    LoadedTexture(AssetId id, TextureData data, boolean placeholder, Object gpu) {
        this.id = id;
        this.data = data;
        this.placeholder = placeholder;
        this.gpu = gpu;
        this.width = data.width();
        this.height = data.height();
    }

    @Override
    public AssetId id() {
        return id;
    }

    @Override
    public boolean isPlaceholder() {
        return placeholder;
    }

    /**
     * The width in pixels.
     *
     * @return the width in pixels
     */
    public int width() {
        return width;
    }

    /**
     * The height in pixels.
     *
     * @return the height in pixels
     */
    public int height() {
        return height;
    }

    /**
     * The GPU texture, if the manager uploaded it. Main thread only.
     *
     * @return the handle {@link GpuUploader#uploadTexture} returned, or empty if nothing was uploaded
     */
    public Optional<Object> gpu() {
        return Optional.ofNullable(gpu);
    }

    /**
     * True while {@link #pixels()} may be read.
     *
     * @return true until the CPU pixels are freed
     */
    public boolean hasPixels() {
        return !data.isClosed();
    }

    /**
     * The CPU pixels, RGBA8, for an upload the caller does itself.
     *
     * @return the pixels, sized {@link #width()} by {@link #height()}
     * @throws IllegalStateException once they were freed (after the manager's upload, or after unload)
     */
    public TextureSource pixels() {
        return TextureSource.of(width, height, data.rgba());
    }

    @Override
    public String toString() {
        return "LoadedTexture[" + id + " " + width + "x" + height + (isPlaceholder() ? ", placeholder" : "")
                + (gpu != null ? ", uploaded" : "") + (hasPixels() ? "" : ", pixels freed") + "]";
    }
}
