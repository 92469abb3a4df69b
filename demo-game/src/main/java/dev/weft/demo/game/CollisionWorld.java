package dev.weft.demo.game;

/**
 * The static collision geometry entities move against: what is under them and what is in their way.
 *
 * <p>The simulation stage calls it from every worker at once, for every entity, every tick, so an
 * implementation must be safe for concurrent reads and should not allocate. The game's one is
 * {@link MeshCollisionWorld} (placed {@code CollisionMesh} BVHs, from the level loader); the tests also
 * have {@code BoxCollisionWorld} (a ground plane plus axis-aligned boxes). Units are metres, +y is up.
 *
 * <pre>{@code
 * float ground = world.groundHeight(x - h, z - h, x + h, z + h, feetY + stepM);   // surface to stand on
 * boolean blocked = world.overlapsBox(x - h, feetY + stepM, z - h, x + h, feetY + 2 * h, z + h);
 * }</pre>
 */
public interface CollisionWorld {

    /**
     * The height of the highest surface at or below {@code maxY} under any part of the footprint
     * {@code [minX, maxX] x [minZ, maxZ]}, or {@link Float#NEGATIVE_INFINITY} if there is none (off the
     * edge of the world). An entity stands on whatever is under any part of it, so it does not sink into
     * a box it half overhangs.
     */
    float groundHeight(float minX, float minZ, float maxX, float maxZ, float maxY);

    /** {@link #groundHeight(float, float, float, float, float)} under the single point {@code (x, z)}. */
    default float groundHeight(float x, float z, float maxY) {
        return groundHeight(x, z, x, z, maxY);
    }

    /** True if the box (min corner, max corner, inclusive) touches any solid geometry. */
    boolean overlapsBox(float minX, float minY, float minZ, float maxX, float maxY, float maxZ);

    /** Where entities may be: the playable volume, also used to place the camera. */
    WorldBounds bounds();

    /** An axis-aligned box in metres; the playable area of a level. */
    record WorldBounds(float minX, float minY, float minZ, float maxX, float maxY, float maxZ) {
        public WorldBounds {
            if (!(minX < maxX && minY <= maxY && minZ < maxZ)) {
                throw new IllegalArgumentException("empty world bounds: " + minX + "," + minY + "," + minZ
                        + " .. " + maxX + "," + maxY + "," + maxZ);
            }
        }

        public float centreX() {
            return (minX + maxX) * 0.5f;
        }

        public float centreZ() {
            return (minZ + maxZ) * 0.5f;
        }

        /** The larger horizontal extent (x or z), in metres. */
        public float horizontalSize() {
            return Math.max(maxX - minX, maxZ - minZ);
        }
    }
}
