package dev.weft.assets;

/** What a level asset is, and so which parser or builder makes it. */
public enum AssetKind {
    /** A PNG file, decoded by {@link PngDecoder}. */
    TEXTURE("texture", false),
    /** A Wavefront OBJ file, parsed by {@link ObjParser}. */
    MESH("mesh", false),
    /** A {@link CollisionMesh} built from a mesh asset once that mesh is parsed; no file of its own. */
    COLLISION("collision", true);

    private final String keyword;
    private final boolean derived;

    AssetKind(String keyword, boolean derived) {
        this.keyword = keyword;
        this.derived = derived;
    }

    /** The level-file keyword that declares this kind. */
    public String keyword() {
        return keyword;
    }

    /** True for assets computed from other assets rather than read from a file. */
    public boolean isDerived() {
        return derived;
    }
}
