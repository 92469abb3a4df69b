package dev.weft.assets;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed, validated level: its assets with their dependency edges, and its entities. The format is
 * described in {@code assets/README.md}; in short:
 *
 * <pre>
 * weft-level 1
 * texture grass textures/grass_2048.png
 * mesh    rock  meshes/rock.obj
 * collision rock_col from rock
 * entity rock_0 mesh=rock texture=grass collision=rock_col 1.5 0 -3
 * </pre>
 *
 * <p>Parsing is a pure function of the bytes (no I/O, no shared state), so any thread or job may call it.
 * A returned {@code LevelFile} is immutable and has passed every check: all references resolve to an
 * asset of the right kind and the dependency graph is acyclic. An asset manager can schedule loads in
 * {@link #loadOrder()} or walk {@link #dependenciesOf} to build a job graph.
 */
public final class LevelFile {
    private final String fileName;
    private final Map<String, LevelAsset> assets;   // declaration order
    private final List<LevelEntity> entities;
    private final List<LevelAsset> loadOrder;

    LevelFile(String fileName, Map<String, LevelAsset> assets, List<LevelEntity> entities, List<LevelAsset> loadOrder) {
        this.fileName = fileName;
        this.assets = Collections.unmodifiableMap(new LinkedHashMap<>(assets));
        this.entities = List.copyOf(entities);
        this.loadOrder = List.copyOf(loadOrder);
    }

    /**
     * Parses UTF-8 level text.
     *
     * @param fileName used only in error messages, e.g. {@code demo.level}
     * @param utf8 the level text, UTF-8 encoded; a leading byte-order mark is skipped
     * @return the parsed and validated level
     * @throws AssetFormatException naming the file and line of the first problem found
     */
    public static LevelFile parse(String fileName, byte[] utf8) {
        return parse(fileName, new String(utf8, StandardCharsets.UTF_8));
    }

    /**
     * Parses level text whose file assets use {@link CodecRegistry#defaults()}'s extensions; see {@link
     * #parse(String, byte[])}.
     *
     * @param fileName used only in error messages, e.g. {@code demo.level}
     * @param text the level text
     * @return the parsed and validated level
     * @throws AssetFormatException naming the file and line of the first problem found
     */
    public static LevelFile parse(String fileName, String text) {
        return parse(fileName, text, CodecRegistry.defaults());
    }

    /**
     * Parses level text; a file asset's path must end in an extension {@code codecs} has a codec for, of
     * the asset's kind.
     *
     * @param fileName used only in error messages, e.g. {@code demo.level}
     * @param text the level text; a leading byte-order mark is skipped
     * @param codecs the codecs whose extensions file assets may use
     * @return the parsed and validated level
     * @throws AssetFormatException naming the file and line of the first problem found (for an unregistered
     *                              extension: the registered ones)
     */
    public static LevelFile parse(String fileName, String text, CodecRegistry codecs) {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);   // a byte-order mark some editors add; not part of the header
        }
        LevelFileParser parsed = LevelFileParser.parse(fileName, text, codecs);
        List<LevelAsset> order = LevelValidator.validate(fileName, parsed.assets(), parsed.entities(), parsed.lines());
        return new LevelFile(fileName, parsed.assets(), parsed.entities(), order);
    }

    /**
     * The file name given to {@code parse}, as used in error messages.
     *
     * @return the file name
     */
    public String fileName() {
        return fileName;
    }

    /**
     * All assets in declaration order.
     *
     * @return an immutable list of every asset
     */
    public List<LevelAsset> assets() {
        return List.copyOf(assets.values());
    }

    /**
     * The assets of one kind, in declaration order.
     *
     * @param kind the kind to keep
     * @return an immutable list of the assets of that kind; empty if there is none
     */
    public List<LevelAsset> assets(AssetKind kind) {
        return assets.values().stream().filter(a -> a.kind() == kind).toList();
    }

    /**
     * The texture assets, in declaration order.
     *
     * @return an immutable list of the textures
     */
    public List<LevelAsset> textures() {
        return assets(AssetKind.TEXTURE);
    }

    /**
     * The mesh assets, in declaration order.
     *
     * @return an immutable list of the meshes
     */
    public List<LevelAsset> meshes() {
        return assets(AssetKind.MESH);
    }

    /**
     * Assets computed from other assets (collision meshes).
     *
     * @return an immutable list of the derived assets, in declaration order
     */
    public List<LevelAsset> derived() {
        return assets.values().stream().filter(a -> a.kind().isDerived()).toList();
    }

    /**
     * The entities, in declaration order.
     *
     * @return an immutable list of the entities
     */
    public List<LevelEntity> entities() {
        return entities;
    }

    /**
     * The asset declared under {@code name}.
     *
     * @param name the asset's name in the level file
     * @return the asset, or empty if the file declares none of that name
     */
    public Optional<LevelAsset> asset(String name) {
        return Optional.ofNullable(assets.get(name));
    }

    /**
     * The assets {@code name} is built from, directly; empty for file assets.
     *
     * @param name the asset's name in the level file
     * @return an immutable list of its direct dependencies
     * @throws IllegalArgumentException if the file declares no asset of that name
     */
    public List<LevelAsset> dependenciesOf(String name) {
        LevelAsset asset = assets.get(name);
        if (asset == null) {
            throw new IllegalArgumentException(fileName + ": no asset '" + name + "'");
        }
        return asset.dependsOn().stream().map(assets::get).toList();
    }

    /**
     * The assets built directly from {@code name} (the collision meshes of a mesh).
     *
     * @param name the asset's name in the level file
     * @return an immutable list of the assets that depend on it directly; empty if none (or no such asset)
     */
    public List<LevelAsset> dependentsOf(String name) {
        return assets.values().stream().filter(a -> a.dependsOn().contains(name)).toList();
    }

    /**
     * Every asset once, each after all of its dependencies; otherwise in declaration order. Loading in
     * this order never waits on an asset that has not been started.
     *
     * @return an immutable list of every asset, in load order
     */
    public List<LevelAsset> loadOrder() {
        return loadOrder;
    }

    @Override
    public String toString() {
        return "LevelFile[" + fileName + ": " + assets.size() + " assets, " + entities.size() + " entities]";
    }
}
