package dev.weft.assets;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * What stands in for an asset that could not be loaded: a magenta and black checkerboard (impossible to
 * miss in a scene) and a unit cube, plus the cube's collision BVH. All in GC-managed memory, so a
 * placeholder has nothing to free. Each call makes fresh buffers: callers may hand them to other threads.
 */
public final class Placeholders {
    /** Side of the placeholder texture. */
    public static final int TEXTURE_SIZE_PX = 64;
    /** Side of one checker square. */
    public static final int CHECKER_CELL_PX = 8;

    private Placeholders() {}

    /**
     * 64×64 RGBA, 8×8-pixel squares alternating magenta (FF00FF) and black, magenta at the origin.
     *
     * @return a new checker texture, in a direct buffer
     */
    public static TextureSource checkerTexture() {
        ByteBuffer px = ByteBuffer.allocateDirect(TEXTURE_SIZE_PX * TEXTURE_SIZE_PX * 4);
        for (int y = 0; y < TEXTURE_SIZE_PX; y++) {
            for (int x = 0; x < TEXTURE_SIZE_PX; x++) {
                boolean magenta = ((x / CHECKER_CELL_PX + y / CHECKER_CELL_PX) & 1) == 0;
                byte rb = magenta ? (byte) 0xFF : 0;
                px.put(rb).put((byte) 0).put(rb).put((byte) 0xFF);
            }
        }
        return TextureSource.of(TEXTURE_SIZE_PX, TEXTURE_SIZE_PX, px.flip());
    }

    /**
     * A cube of edge 1 m centred on the origin (24 vertices, 12 triangles).
     *
     * @return a new unit cube
     */
    public static MeshSource unitCube() {
        return ProceduralMeshes.cube(1f);
    }

    /**
     * The bounds of {@link #unitCube()}.
     *
     * @return the box from (-0.5, -0.5, -0.5) to (0.5, 0.5, 0.5)
     */
    public static Aabb unitCubeBounds() {
        return new Aabb(-0.5f, -0.5f, -0.5f, 0.5f, 0.5f, 0.5f);
    }

    /** A BVH over the triangles of any mesh source (the placeholder cube, usually). */
    static CollisionMesh collisionOf(MeshSource mesh) {
        FloatBuffer v = mesh.vertices();
        IntBuffer idx = mesh.indices();
        int vertices = v.remaining() / MeshSource.FLOATS_PER_VERTEX;
        float[] positions = new float[vertices * 3];
        for (int i = 0; i < vertices; i++) {
            int o = v.position() + i * MeshSource.FLOATS_PER_VERTEX;
            positions[i * 3] = v.get(o);
            positions[i * 3 + 1] = v.get(o + 1);
            positions[i * 3 + 2] = v.get(o + 2);
        }
        int[] indices = new int[idx.remaining()];
        idx.duplicate().get(indices);
        return CollisionMesh.build(positions, indices);
    }
}
