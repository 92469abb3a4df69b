package dev.weft.assets;

/**
 * Collision BVHs built from meshes: {@code collision:p} is the {@link CollisionMesh} of {@code mesh:p}. A
 * placeholder mesh gives a collision marked as a placeholder; a failed build gives the unit cube's.
 */
final class CollisionCodec implements DerivedCodec<LoadedMesh> {
    @Override
    public AssetKind kind() {
        return AssetKind.COLLISION;
    }

    @Override
    public AssetId sourceOf(AssetId id) {
        return id.sourceMesh();
    }

    @Override
    public Class<LoadedMesh> sourceType() {
        return LoadedMesh.class;
    }

    @Override
    public LoadedAsset build(AssetId id, LoadedMesh mesh) {
        CollisionMesh bvh = mesh.data().map(CollisionMesh::build).orElseGet(() -> Placeholders.collisionOf(mesh.source()));
        return new LoadedCollision(id, bvh, mesh.isPlaceholder());
    }

    @Override
    public LoadedAsset placeholder(AssetId id) {
        return new LoadedCollision(id, Placeholders.collisionOf(Placeholders.unitCube()), true);
    }

    @Override
    public String fallback() {
        return "collision built from the placeholder cube";
    }

    @Override
    public String toString() {
        return "collision codec (from meshes)";
    }
}
