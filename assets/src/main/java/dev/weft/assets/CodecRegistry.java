package dev.weft.assets;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Codecs by asset kind and file extension, and the builders of derived kinds. {@link #defaults()} has PNG
 * (LWJGL STB) textures, OBJ meshes and collisions built from meshes; a new format is one
 * {@link AssetCodec} and one {@link #register} call, after which the {@link AssetManager} loads files of
 * its extension and {@link LevelFile#parse(String, String, CodecRegistry)} accepts them. Registration and
 * lookup may happen on any thread (concurrent maps); register codecs before the manager that uses this
 * registry requests files of that extension.
 */
public final class CodecRegistry {
    private final Map<AssetKind, Map<String, AssetCodec<?>>> byKind = new ConcurrentHashMap<>();
    private final Map<AssetKind, AssetCodec<?>> firstByKind = new ConcurrentHashMap<>();   // placeholders of unknown extensions
    private final Map<AssetKind, DerivedCodec<?>> derived = new ConcurrentHashMap<>();

    /** An empty registry. */
    public CodecRegistry() {}

    /**
     * PNG textures, OBJ meshes, and collision BVHs built from meshes.
     *
     * @return a new registry holding the default codecs; more may be registered
     */
    public static CodecRegistry defaults() {
        return new CodecRegistry()
                .register(FileCodec.texture(List.of("png"), PngDecoder::decode))
                .register(FileCodec.mesh(List.of("obj"), ObjParser::parse))
                .register(new CollisionCodec());
    }

    /**
     * Adds {@code codec} under each of its extensions for its kind.
     *
     * @param codec the codec to add; not null
     * @return this registry
     * @throws IllegalArgumentException if its kind is derived (those are built, see
     *                                  {@link #register(DerivedCodec)}) or an extension of that kind is taken
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
        firstByKind.putIfAbsent(codec.kind(), codec);
        return this;
    }

    /**
     * Makes {@code codec} the builder of its (derived) kind.
     *
     * @param codec the builder to add; not null
     * @return this registry
     * @throws IllegalArgumentException if its kind is not derived or already has a builder
     */
    public CodecRegistry register(DerivedCodec<?> codec) {
        Objects.requireNonNull(codec, "codec");
        if (!codec.kind().isDerived()) {
            throw new IllegalArgumentException(codec.kind().keyword() + " assets are decoded from files, not derived: " + codec);
        }
        DerivedCodec<?> old = derived.putIfAbsent(codec.kind(), codec);
        if (old != null) {
            throw new IllegalArgumentException(codec.kind().keyword() + "s are already built by " + old);
        }
        return this;
    }

    /**
     * The codec for {@code id}'s kind and its path's extension.
     *
     * @param id the asset whose kind and path pick the codec
     * @param file the file's display name, for the error message
     * @return the codec
     * @throws AssetFormatException naming {@code file} and the registered extensions if none fits
     */
    public AssetCodec<?> codecFor(AssetId id, String file) {
        AssetCodec<?> codec = lookup(id.kind(), id.path());
        if (codec == null) {
            String ext = extensionOf(id.path());
            throw new AssetFormatException(file, "no " + id.kind().keyword() + " codec for "
                    + (ext == null ? "a file without an extension" : "'." + ext + "'") + "; registered: "
                    + registered(id.kind()));
        }
        return codec;
    }

    /**
     * True if a codec of {@code kind} decodes files named like {@code path}.
     *
     * @param kind the asset kind
     * @param path the file's path; only its extension counts
     * @return true if a codec is registered for that kind and extension
     */
    public boolean accepts(AssetKind kind, String path) {
        return lookup(kind, path) != null;
    }

    /**
     * The codec whose placeholder stands in for {@code id}: the one for its extension, or else the first
     * registered for its kind (a file of an unknown extension still gets a checker or a cube).
     *
     * @throws IllegalStateException if no codec of that kind is registered at all
     */
    AssetCodec<?> placeholderCodec(AssetId id) {
        AssetCodec<?> codec = lookup(id.kind(), id.path());
        if (codec == null) {
            codec = firstByKind.get(id.kind());
        }
        if (codec == null) {
            throw new IllegalStateException("no " + id.kind().keyword() + " codec registered, so no placeholder for " + id);
        }
        return codec;
    }

    /**
     * The builder of derived kind {@code kind}.
     *
     * @throws IllegalStateException if none is registered
     */
    DerivedCodec<?> derived(AssetKind kind) {
        DerivedCodec<?> codec = derived.get(kind);
        if (codec == null) {
            throw new IllegalStateException("no builder registered for " + kind.keyword() + " assets");
        }
        return codec;
    }

    /**
     * The registered extensions of {@code kind}, sorted, e.g. {@code [.png]}.
     *
     * @param kind the asset kind
     * @return a new list of the extensions, each with its dot; empty if none is registered
     */
    public List<String> registered(AssetKind kind) {
        List<String> out = new ArrayList<>();
        new TreeMap<>(byKind.getOrDefault(kind, Map.of())).keySet().forEach(e -> out.add("." + e));
        return out;
    }

    private AssetCodec<?> lookup(AssetKind kind, String path) {
        String ext = extensionOf(path);
        return ext == null ? null : byKind.getOrDefault(kind, Map.of()).get(ext);
    }

    private static String extensionOf(String path) {
        int slash = path.lastIndexOf('/');
        int dot = path.lastIndexOf('.');
        return dot > slash && dot < path.length() - 1 ? path.substring(dot + 1).toLowerCase(Locale.ROOT) : null;
    }
}
