package dev.weft.assets;

/**
 * A collision BVH built from a mesh asset. {@link #isPlaceholder()} when it was built from a placeholder
 * cube because its mesh could not be loaded. Immutable and safe to query from any thread.
 *
 * @param id the asset's id
 * @param mesh the collision BVH
 * @param isPlaceholder true if it was built from a placeholder cube
 */
public record LoadedCollision(AssetId id, CollisionMesh mesh, boolean isPlaceholder) implements LoadedAsset {
}
