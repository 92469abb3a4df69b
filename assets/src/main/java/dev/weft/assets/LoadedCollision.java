package dev.weft.assets;

/**
 * A collision BVH built from a mesh asset. {@link #isPlaceholder()} when it was built from a placeholder
 * cube because its mesh could not be loaded. Immutable and safe to query from any thread.
 */
public record LoadedCollision(AssetId id, CollisionMesh mesh, boolean isPlaceholder) implements LoadedAsset {
}
