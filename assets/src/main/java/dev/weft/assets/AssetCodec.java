package dev.weft.assets;

import java.util.List;

/**
 * Turns a file's bytes into decoded data of one asset kind: {@link TextureData} for
 * {@link AssetKind#TEXTURE}, {@link MeshData} for {@link AssetKind#MESH}. Registered in a
 * {@link CodecRegistry} under its file extensions; the {@link AssetManager} picks the codec by the
 * requested path's extension. {@link #decode} runs on a worker inside the decode lane, possibly on
 * several workers at once, so a codec keeps no mutable state.
 *
 * @param <D> the decoded data the kind expects ({@code TextureData} or {@code MeshData})
 */
public interface AssetCodec<D> {
    /** What this codec produces. */
    AssetKind kind();

    /** Lower-case file extensions without the dot, e.g. {@code png}. */
    List<String> extensions();

    /**
     * Decodes one file.
     *
     * @param file display name of the file, for error messages
     * @throws AssetFormatException naming {@code file} (and the line, for text formats) if the bytes are bad
     */
    D decode(String file, byte[] bytes);

    /** A codec from a function, e.g. {@code AssetCodec.of(AssetKind.MESH, List.of("obj"), ObjParser::parse)}. */
    static <D> AssetCodec<D> of(AssetKind kind, List<String> extensions, Decoder<D> decoder) {
        List<String> exts = List.copyOf(extensions);
        return new AssetCodec<>() {
            @Override public AssetKind kind() { return kind; }
            @Override public List<String> extensions() { return exts; }
            @Override public D decode(String file, byte[] bytes) { return decoder.decode(file, bytes); }
            @Override public String toString() { return kind.keyword() + " codec " + exts; }
        };
    }

    /** The decode step alone. */
    @FunctionalInterface
    interface Decoder<D> {
        D decode(String file, byte[] bytes);
    }
}
