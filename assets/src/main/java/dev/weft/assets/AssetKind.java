package dev.weft.assets;

/**
 * What an asset is: the level-file keyword that declares it, and the kind a {@link CodecRegistry} files
 * its codecs under (by file extension for file kinds, one {@link DerivedCodec} for a derived kind).
 */
public enum AssetKind {
    /** An image file, decoded by a texture codec ({@link FileCodec#texture}; PNG by default). */
    TEXTURE("texture", false),
    /** A mesh file, decoded by a mesh codec ({@link FileCodec#mesh}; Wavefront OBJ by default). */
    MESH("mesh", false),
    /** A {@link CollisionMesh} built from a mesh asset once that mesh is parsed (by the registry's collision codec); no file of its own. */
    COLLISION("collision", true);

    private final String keyword;
    private final boolean derived;

    AssetKind(String keyword, boolean derived) {
        this.keyword = keyword;
        this.derived = derived;
    }

    /**
     * The level-file keyword that declares this kind.
     *
     * @return the keyword, e.g. {@code texture}
     */
    public String keyword() {
        return keyword;
    }

    /**
     * True for assets computed from other assets rather than read from a file.
     *
     * @return true for a derived kind
     */
    public boolean isDerived() {
        return derived;
    }
}
