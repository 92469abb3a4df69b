package dev.weft.assets;

/**
 * A finished asset: loaded, or a placeholder standing in for one that failed ({@link #isPlaceholder()};
 * the failure is on its {@link AssetRef}). Immutable apart from the CPU-side memory the asset manager
 * frees after upload or at unload.
 */
public sealed interface LoadedAsset permits LoadedTexture, LoadedMesh, LoadedCollision {
    /**
     * The asset's id.
     *
     * @return the id the asset was requested by
     */
    AssetId id();

    /**
     * True if this is a stand-in for an asset that could not be loaded (or was declared as one).
     *
     * @return true for a stand-in
     */
    boolean isPlaceholder();
}
