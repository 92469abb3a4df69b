package dev.weft.assets;

/** An axis-aligned box, min corner and max corner inclusive, in the mesh's units (metres in the demo). */
public record Aabb(float minX, float minY, float minZ, float maxX, float maxY, float maxZ) {
    public Aabb {
        if (!(minX <= maxX && minY <= maxY && minZ <= maxZ)) {
            throw new IllegalArgumentException("min must be <= max on every axis (and not NaN): " + minX + "," + minY
                    + "," + minZ + " .. " + maxX + "," + maxY + "," + maxZ);
        }
    }

    /** The box from a centre and half extents. */
    public static Aabb around(float x, float y, float z, float halfX, float halfY, float halfZ) {
        return new Aabb(x - halfX, y - halfY, z - halfZ, x + halfX, y + halfY, z + halfZ);
    }

    /** True if the boxes share at least one point (touching counts). */
    public boolean overlaps(Aabb other) {
        return minX <= other.maxX && other.minX <= maxX
                && minY <= other.maxY && other.minY <= maxY
                && minZ <= other.maxZ && other.minZ <= maxZ;
    }

    public boolean contains(float x, float y, float z) {
        return x >= minX && x <= maxX && y >= minY && y <= maxY && z >= minZ && z <= maxZ;
    }
}
