package dev.weft.demo.game;

import dev.weft.assets.Aabb;
import dev.weft.assets.CollisionMesh;
import java.util.List;

/**
 * A {@link CollisionWorld} over {@link CollisionMesh} BVHs placed at offsets (a level's entities with a
 * {@code collision=} asset): ground height by a downward ray cast, obstacles by box overlap. For the
 * level loader to hand to the game; immutable, and as thread-safe as {@code CollisionMesh} (fully).
 *
 * <p>Queries allocate a little (the BVH's stack and result objects); that is the price of reusing
 * {@code CollisionMesh} unchanged.
 */
public final class MeshCollisionWorld implements CollisionWorld {
    private final List<Placed> placed;
    private final WorldBounds bounds;

    /** A collision mesh translated to {@code (x, y, z)}. */
    public record Placed(CollisionMesh mesh, float x, float y, float z) {
        Aabb worldBounds() {
            Aabb b = mesh.bounds();
            return new Aabb(b.minX() + x, b.minY() + y, b.minZ() + z, b.maxX() + x, b.maxY() + y, b.maxZ() + z);
        }
    }

    /** @param bounds the playable volume, or null for the union of the meshes' bounds (plus 10 m of sky) */
    public MeshCollisionWorld(List<Placed> placed, WorldBounds bounds) {
        if (placed.isEmpty() && bounds == null) {
            throw new IllegalArgumentException("no collision meshes and no bounds");
        }
        this.placed = List.copyOf(placed);
        this.bounds = bounds != null ? bounds : union(this.placed);
    }

    private static WorldBounds union(List<Placed> placed) {
        float minX = Float.POSITIVE_INFINITY, minY = minX, minZ = minX;
        float maxX = Float.NEGATIVE_INFINITY, maxY = maxX, maxZ = maxX;
        for (Placed p : placed) {
            Aabb b = p.worldBounds();
            minX = Math.min(minX, b.minX());
            minY = Math.min(minY, b.minY());
            minZ = Math.min(minZ, b.minZ());
            maxX = Math.max(maxX, b.maxX());
            maxY = Math.max(maxY, b.maxY());
            maxZ = Math.max(maxZ, b.maxZ());
        }
        return new WorldBounds(minX, minY, minZ, maxX, maxY + 10f, maxZ);
    }

    /** Footprints smaller than this (m²) are sampled at their centre only: one ray instead of five. */
    static final float SMALL_FOOTPRINT_M2 = 1f;

    /**
     * Ray casts down at the footprint's centre, and for footprints of {@value #SMALL_FOOTPRINT_M2} m² or
     * more also at its four corners: exact for a point, sampled for a footprint. With 10,000 entities on
     * a 100k-triangle terrain the rays are most of a frame's simulation, so small entities take one.
     */
    @Override
    public float groundHeight(float minX, float minZ, float maxX, float maxZ, float maxY) {
        float best = groundAt((minX + maxX) * 0.5f, (minZ + maxZ) * 0.5f, maxY);
        if ((maxX - minX) * (maxZ - minZ) >= SMALL_FOOTPRINT_M2) {
            best = Math.max(best, groundAt(minX, minZ, maxY));
            best = Math.max(best, groundAt(maxX, minZ, maxY));
            best = Math.max(best, groundAt(minX, maxZ, maxY));
            best = Math.max(best, groundAt(maxX, maxZ, maxY));
        }
        return best;
    }

    private float groundAt(float x, float z, float maxY) {
        float best = Float.NEGATIVE_INFINITY;
        for (Placed p : placed) {
            Aabb b = p.mesh().bounds();
            float lx = x - p.x(), lz = z - p.z(), ly = maxY - p.y();
            if (lx < b.minX() || lx > b.maxX() || lz < b.minZ() || lz > b.maxZ() || ly < b.minY()) {
                continue;
            }
            float depth = ly - b.minY();
            float t = p.mesh().raycastT(lx, ly, lz, 0f, -1f, 0f, depth);   // allocation-free, per entity
            if (!Float.isNaN(t)) {
                best = Math.max(best, maxY - t);
            }
        }
        return best;
    }

    @Override
    public boolean overlapsBox(float minX, float minY, float minZ, float maxX, float maxY, float maxZ) {
        for (Placed p : placed) {
            Aabb b = p.mesh().bounds();
            float lMinX = minX - p.x(), lMaxX = maxX - p.x();
            float lMinY = minY - p.y(), lMaxY = maxY - p.y();
            float lMinZ = minZ - p.z(), lMaxZ = maxZ - p.z();
            if (b.minX() <= lMaxX && lMinX <= b.maxX() && b.minY() <= lMaxY && lMinY <= b.maxY()
                    && b.minZ() <= lMaxZ && lMinZ <= b.maxZ()
                    && p.mesh().overlaps(lMinX, lMinY, lMinZ, lMaxX, lMaxY, lMaxZ)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public WorldBounds bounds() {
        return bounds;
    }

    @Override
    public String toString() {
        return "MeshCollisionWorld[" + placed.size() + " meshes, " + bounds + "]";
    }
}
