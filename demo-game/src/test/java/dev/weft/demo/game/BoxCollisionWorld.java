package dev.weft.demo.game;

import java.util.List;

/**
 * A flat ground plane at {@code groundY} plus solid axis-aligned boxes (crates, pillars): the tests'
 * {@link CollisionWorld}, also used by their procedural levels (the game itself uses
 * {@link MeshCollisionWorld}). Immutable; queries scan the boxes linearly, which is fine for the few
 * dozen a procedural level has.
 */
public final class BoxCollisionWorld implements CollisionWorld {
    private final float groundY;
    private final WorldBounds bounds;
    private final float[] boxes;   // 6 floats per box: min xyz, max xyz
    private final int boxCount;

    /** An axis-aligned box. */
    public record Box(float minX, float minY, float minZ, float maxX, float maxY, float maxZ) {
        public Box {
            if (!(minX <= maxX && minY <= maxY && minZ <= maxZ)) {
                throw new IllegalArgumentException("box min must be <= max: " + minX + "," + minY + "," + minZ
                        + " .. " + maxX + "," + maxY + "," + maxZ);
            }
        }

        /** A box standing on {@code baseY}, centred on (x, z). */
        public static Box standing(float x, float baseY, float z, float sizeX, float sizeY, float sizeZ) {
            return new Box(x - sizeX / 2, baseY, z - sizeZ / 2, x + sizeX / 2, baseY + sizeY, z + sizeZ / 2);
        }
    }

    /**
     * @param groundY height of the ground plane, which spans {@code bounds} horizontally
     * @param bounds  the playable volume
     * @param boxes   solid boxes
     */
    public BoxCollisionWorld(float groundY, WorldBounds bounds, List<Box> boxes) {
        this.groundY = groundY;
        this.bounds = bounds;
        this.boxCount = boxes.size();
        this.boxes = new float[boxCount * 6];
        for (int i = 0; i < boxCount; i++) {
            Box b = boxes.get(i);
            int o = i * 6;
            this.boxes[o] = b.minX();
            this.boxes[o + 1] = b.minY();
            this.boxes[o + 2] = b.minZ();
            this.boxes[o + 3] = b.maxX();
            this.boxes[o + 4] = b.maxY();
            this.boxes[o + 5] = b.maxZ();
        }
    }

    public int boxCount() {
        return boxCount;
    }

    @Override
    public float groundHeight(float minX, float minZ, float maxX, float maxZ, float maxY) {
        if (maxX < bounds.minX() || minX > bounds.maxX() || maxZ < bounds.minZ() || minZ > bounds.maxZ()) {
            return Float.NEGATIVE_INFINITY;
        }
        float best = groundY <= maxY ? groundY : Float.NEGATIVE_INFINITY;
        final float[] b = boxes;
        for (int o = 0, end = boxCount * 6; o < end; o += 6) {
            float top = b[o + 4];
            if (top > best && top <= maxY && b[o] <= maxX && minX <= b[o + 3] && b[o + 2] <= maxZ && minZ <= b[o + 5]) {
                best = top;
            }
        }
        return best;
    }

    @Override
    public boolean overlapsBox(float minX, float minY, float minZ, float maxX, float maxY, float maxZ) {
        final float[] b = boxes;
        for (int o = 0, end = boxCount * 6; o < end; o += 6) {
            if (b[o] <= maxX && minX <= b[o + 3] && b[o + 1] <= maxY && minY <= b[o + 4]
                    && b[o + 2] <= maxZ && minZ <= b[o + 5]) {
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
        return "BoxCollisionWorld[ground y=" + groundY + ", " + boxCount + " boxes, " + bounds + "]";
    }
}
