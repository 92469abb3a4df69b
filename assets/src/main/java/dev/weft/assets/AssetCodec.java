package dev.weft.assets;

import java.util.List;

/**
 * Everything an {@link AssetManager} needs to know about one file format: how to decode it, what stands
 * in when it cannot be loaded, and how it goes to the GPU. Registered in a {@link CodecRegistry} under
 * its kind and file extensions; the manager picks the codec by the requested path's extension, and a
 * level file may name a path of that extension. A new format (KTX2, glTF) is one class, usually a
 * decode function made into a codec by {@link FileCodec#texture} or {@link FileCodec#mesh}, plus one
 * {@link CodecRegistry#register} call.
 *
 * <p>Threading: {@link #decode} runs on a worker inside the decode lane, possibly on several at once, and
 * {@link #placeholder} on any worker, so a codec keeps no mutable state; {@link #upload} runs on the main
 * thread only (a main-thread job), like every {@link GpuUploader} call.
 *
 * @param <D> the decoded data, e.g. {@link TextureData} or {@link MeshData}
 */
public interface AssetCodec<D> {
    /**
     * What this codec produces; not a derived kind (those have a {@link DerivedCodec}).
     *
     * @return the kind of asset this codec decodes
     */
    AssetKind kind();

    /**
     * Lower-case file extensions without the dot, e.g. {@code png}.
     *
     * @return the extensions this codec decodes, lower case, without the dot
     */
    List<String> extensions();

    /**
     * Decodes one file.
     *
     * @param file display name of the file, for error messages
     * @param bytes the file's whole contents
     * @return the decoded data
     * @throws AssetFormatException naming {@code file} (and the line, for text formats) if the bytes are bad
     */
    D decode(String file, byte[] bytes);

    /**
     * Fresh stand-in data in GC-managed memory (nothing to free), e.g. a checkerboard or a unit cube.
     *
     * @return new placeholder data
     */
    D placeholder();

    /**
     * Puts {@code data} on the GPU with one call of {@code gpu}; returns its handle. Main thread only.
     *
     * @param gpu the game's uploader
     * @param data the decoded data, or placeholder data
     * @return the GPU handle, which {@link #asset} receives
     */
    Object upload(GpuUploader gpu, D data);

    /**
     * The finished asset.
     *
     * @param id the asset's id
     * @param data the decoded data, or the placeholder data
     * @param placeholder true if {@code data} came from {@link #placeholder()}
     * @param gpu         the handle {@link #upload} returned, or null if nothing was uploaded
     * @return the asset handed to the manager's references
     */
    LoadedAsset asset(AssetId id, D data, boolean placeholder, Object gpu);

    /**
     * What must be closed to free decoded {@code data}'s native memory (the manager closes it once, after
     * the upload or at unload), or null if the GC frees it all. Default null.
     *
     * @param data the decoded data
     * @return what frees its native memory, or null if there is none
     */
    default AutoCloseable nativeMemory(D data) {
        return null;
    }

    /**
     * How a {@link LoadFailure} says what replaced the asset, e.g. {@code using the placeholder cube}.
     *
     * @return the words a failure uses for the stand-in
     */
    default String fallback() {
        return "using a placeholder";
    }

    /**
     * The decode step alone: what {@link FileCodec#texture} and {@link FileCodec#mesh} make a codec of.
     *
     * @param <D> the decoded data
     */
    @FunctionalInterface
    interface Decoder<D> {
        /**
         * Decodes one file, as {@link AssetCodec#decode} does.
         *
         * @param file display name of the file, for error messages
         * @param bytes the file's whole contents
         * @return the decoded data
         * @throws AssetFormatException naming {@code file} if the bytes are bad
         */
        D decode(String file, byte[] bytes);
    }
}
