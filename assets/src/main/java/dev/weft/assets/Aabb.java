package dev.weft.assets;

/**
 * An axis-aligned box, min corner and max corner inclusive, in the mesh's units (metres in the demo).
 *
 * @param minX the min corner's x
 * @param minY the min corner's y
 * @param minZ the min corner's z
 * @param maxX the max corner's x; not less than {@code minX}
 * @param maxY the max corner's y; not less than {@code minY}
 * @param maxZ the max corner's z; not less than {@code minZ}
 */
public record Aabb(float minX, float minY, float minZ, float maxX, float maxY, float maxZ) {
    /**
     * Checks the corners.
     *
     * @throws IllegalArgumentException if a min coordinate is above its max, or one is NaN
     */
    public Aabb {
        if (!(minX <= maxX && minY <= maxY && minZ <= maxZ)) {
            throw new IllegalArgumentException("min must be <= max on every axis (and not NaN): " + minX + "," + minY
                    + "," + minZ + " .. " + maxX + "," + maxY + "," + maxZ);
        }
    }

    /**
     * The box from a centre and half extents.
     *
     * @param x the centre's x
     * @param y the centre's y
     * @param z the centre's z
     * @param halfX half the box's size along x
     * @param halfY half the box's size along y
     * @param halfZ half the box's size along z
     * @return the box
     */
    public static Aabb around(float x, float y, float z, float halfX, float halfY, float halfZ) {
        return new Aabb(x - halfX, y - halfY, z - halfZ, x + halfX, y + halfY, z + halfZ);
    }

    /**
     * True if the boxes share at least one point (touching counts).
     *
     * @param other the other box
     * @return true if they overlap or touch
     */
    public boolean overlaps(Aabb other) {
        return minX <= other.maxX && other.minX <= maxX
                && minY <= other.maxY && other.minY <= maxY
                && minZ <= other.maxZ && other.minZ <= maxZ;
    }

    /**
     * True if the point is in the box, its faces included.
     *
     * @param x the point's x
     * @param y the point's y
     * @param z the point's z
     * @return true if the point is inside or on the box
     */
    public boolean contains(float x, float y, float z) {
        return x >= minX && x <= maxX && y >= minY && y <= maxY && z >= minZ && z <= maxZ;
    }
}
