package dev.weft.assets;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Codecs by asset kind and file extension. {@link #defaults()} has PNG (LWJGL STB) for textures and OBJ for
 * meshes; a new format is one {@link AssetCodec} and one {@link #register} call. Registration and lookup
 * may happen on any thread (a concurrent map); register codecs before the manager that uses this
 * registry requests files of that extension.
 */
public final class CodecRegistry {
    private final Map<AssetKind, Map<String, AssetCodec<?>>> byKind = new ConcurrentHashMap<>();

    /** An empty registry. */
    public CodecRegistry() {}

    /** PNG textures and OBJ meshes. */
    public static CodecRegistry defaults() {
        return new CodecRegistry()
                .register(AssetCodec.of(AssetKind.TEXTURE, List.of("png"), PngDecoder::decode))
                .register(AssetCodec.of(AssetKind.MESH, List.of("obj"), ObjParser::parse));
    }

    /**
     * Adds {@code codec} under each of its extensions for its kind.
     *
     * @throws IllegalArgumentException if its kind is derived (collisions are built from meshes, not
     *                                  decoded) or an extension of that kind is taken
     */
    public CodecRegistry register(AssetCodec<?> codec) {
        Objects.requireNonNull(codec, "codec");
        if (codec.kind().isDerived()) {
            throw new IllegalArgumentException(codec.kind().keyword() + " assets are derived, not decoded: " + codec);
        }
        Map<String, AssetCodec<?>> exts = byKind.computeIfAbsent(codec.kind(), k -> new ConcurrentHashMap<>());
        for (String ext : codec.extensions()) {
            AssetCodec<?> old = exts.putIfAbsent(ext.toLowerCase(Locale.ROOT), codec);
            if (old != null) {
                throw new IllegalArgumentException("." + ext + " " + codec.kind().keyword() + "s already decode with " + old);
            }
        }
        return this;
    }

    /**
     * The codec for {@code id}'s kind and its path's extension.
     *
     * @throws AssetFormatException naming {@code file} and the registered extensions if none fits
     */
    public AssetCodec<?> codecFor(AssetId id, String file) {
        String ext = extensionOf(id.path());
        Map<String, AssetCodec<?>> exts = byKind.getOrDefault(id.kind(), Map.of());
        AssetCodec<?> codec = ext == null ? null : exts.get(ext);
        if (codec == null) {
            throw new AssetFormatException(file, "no " + id.kind().keyword() + " codec for "
                    + (ext == null ? "a file without an extension" : "'." + ext + "'") + "; registered: "
                    + registered(id.kind()));
        }
        return codec;
    }

    /** Decodes {@code bytes} with the codec for {@code id}; the result must be a {@code type}. */
    <D> D decode(AssetId id, String file, byte[] bytes, Class<D> type) {
        AssetCodec<?> codec = codecFor(id, file);
        Object d = codec.decode(file, bytes);
        if (!type.isInstance(d)) {
            throw new IllegalStateException(codec + " returned " + d + ", not a " + type.getSimpleName());
        }
        return type.cast(d);
    }

    /** The registered extensions of {@code kind}, sorted, e.g. {@code [.png]}. */
    public List<String> registered(AssetKind kind) {
        List<String> out = new ArrayList<>();
        new TreeMap<>(byKind.getOrDefault(kind, Map.of())).keySet().forEach(e -> out.add("." + e));
        return out;
    }

    private static String extensionOf(String path) {
        int slash = path.lastIndexOf('/');
        int dot = path.lastIndexOf('.');
        return dot > slash && dot < path.length() - 1 ? path.substring(dot + 1).toLowerCase(Locale.ROOT) : null;
    }
}
