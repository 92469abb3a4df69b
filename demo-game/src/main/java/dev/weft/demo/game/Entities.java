package dev.weft.demo.game;

import dev.weft.demo.game.CollisionWorld.WorldBounds;
import java.util.SplittableRandom;

/**
 * The dynamic entities, structure-of-arrays: entity {@code i} is index {@code i} of every array.
 *
 * <p>Ownership: the simulation stage writes entity {@code i} (from whichever worker runs the range that
 * holds {@code i}); the cull and build stages of the same frame only read, after the counter between
 * the stages (whose decrement and await order the writes before the reads). Nothing else touches them
 * while a frame graph runs.
 */
final class Entities {
    final int count;
    final float[] x, y, z;          // centre, metres
    final float[] vx, vy, vz;       // metres per second
    final float[] half;             // half extent (collision and bounds), metres
    final float[] yaw, spin;        // radians, radians per second
    final float[] phase, bobRate;   // animation phase (radians) and its rate (radians per second)
    final float[] scale;            // animated size factor, derived from phase each tick
    final byte[] mesh;              // agent mesh kind, 0 .. meshKinds - 1
    final byte[] texture;           // agent texture kind

    private Entities(int n) {
        count = n;
        x = new float[n];
        y = new float[n];
        z = new float[n];
        vx = new float[n];
        vy = new float[n];
        vz = new float[n];
        half = new float[n];
        yaw = new float[n];
        spin = new float[n];
        phase = new float[n];
        bobRate = new float[n];
        scale = new float[n];
        mesh = new byte[n];
        texture = new byte[n];
    }

    /** A deep copy: a throwaway state to run frames on (the warm-up) without touching this one. */
    Entities copy() {
        Entities c = new Entities(count);
        float[][] from = {x, y, z, vx, vy, vz, half, yaw, spin, phase, bobRate, scale};
        float[][] to = {c.x, c.y, c.z, c.vx, c.vy, c.vz, c.half, c.yaw, c.spin, c.phase, c.bobRate, c.scale};
        for (int a = 0; a < from.length; a++) {
            System.arraycopy(from[a], 0, to[a], 0, count);
        }
        System.arraycopy(mesh, 0, c.mesh, 0, count);
        System.arraycopy(texture, 0, c.texture, 0, count);
        return c;
    }

    /**
     * {@code n} entities placed from {@code seed} inside the world's bounds, each above the highest
     * surface under its footprint (re-drawn if it would still touch a box), moving horizontally in a
     * random direction.
     */
    static Entities spawn(int n, long seed, CollisionWorld world, int meshKinds, int textureKinds) {
        if (n < 0 || meshKinds < 1 || meshKinds > 127 || textureKinds < 1 || textureKinds > 127) {
            throw new IllegalArgumentException("bad spawn: n=" + n + " meshKinds=" + meshKinds
                    + " textureKinds=" + textureKinds);
        }
        Entities e = new Entities(n);
        SplittableRandom rnd = new SplittableRandom(seed);
        WorldBounds b = world.bounds();
        for (int i = 0; i < n; i++) {
            float h = 0.2f + (float) rnd.nextDouble(0.3);
            float margin = h + 0.25f;
            float px = 0, py = 0, pz = 0;
            for (int attempt = 0; attempt < 16; attempt++) {    // above whatever is under its footprint
                px = (float) rnd.nextDouble(b.minX() + margin, b.maxX() - margin);
                pz = (float) rnd.nextDouble(b.minZ() + margin, b.maxZ() - margin);
                float ground = world.groundHeight(px - h, pz - h, px + h, pz + h, b.maxY());
                if (ground == Float.NEGATIVE_INFINITY) {
                    ground = b.minY();
                }
                py = Math.min(ground + h + (float) rnd.nextDouble(4.0), b.maxY() - h);
                if (!world.overlapsBox(px - h, py - h, pz - h, px + h, py + h, pz + h)) {
                    break;
                }
            }
            e.half[i] = h;
            e.x[i] = px;
            e.y[i] = py;
            e.z[i] = pz;
            double dir = rnd.nextDouble(2 * Math.PI);
            double speed = 1.0 + rnd.nextDouble(3.0);
            e.vx[i] = (float) (StrictMath.cos(dir) * speed);
            e.vz[i] = (float) (StrictMath.sin(dir) * speed);
            e.spin[i] = (float) rnd.nextDouble(-3.0, 3.0);
            e.phase[i] = (float) rnd.nextDouble(2 * Math.PI);
            e.bobRate[i] = 2f + (float) rnd.nextDouble(4.0);
            e.scale[i] = 1f;
            e.mesh[i] = (byte) rnd.nextInt(meshKinds);
            e.texture[i] = (byte) rnd.nextInt(textureKinds);
        }
        return e;
    }
}
