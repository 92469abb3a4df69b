package dev.weft.demo.game;

import dev.weft.demo.game.CollisionWorld.WorldBounds;

/**
 * One fixed-timestep tick of one entity: gravity, movement, bouncing off the world's edges and boxes,
 * landing on the highest surface under its footprint (stepping up at most {@link #stepHeight}), and the
 * spin/pulse animation. Entities do not collide with each
 * other, so ticks of different entities are independent and any range split gives the same result.
 *
 * <p>Deterministic: float arithmetic only, and {@link FloatTrig} (float-only, allocation-free) for the
 * one transcendental call, so a seed gives the same states on every run whichever worker ticks which
 * entity.
 */
final class Simulation {
    static final float GRAVITY = -9.81f;          // m/s^2
    static final float RESTITUTION = 0.55f;       // fraction of downward speed kept on a bounce
    static final float MIN_HOP = 1.5f;            // m/s: a slower bounce becomes a fresh hop
    private static final float TWO_PI = (float) (2 * Math.PI);

    private Simulation() {}

    /** The height above an entity's feet it can step up onto (and below which boxes do not block it). */
    static float stepHeight(float half) {
        return 0.5f * half;
    }

    static void tick(Entities e, CollisionWorld world, WorldBounds b, int i, float dt) {
        final float h = e.half[i];
        final float step = stepHeight(h);
        final float x = e.x[i], y = e.y[i], z = e.z[i];
        float vx = e.vx[i], vy = e.vy[i] + GRAVITY * dt, vz = e.vz[i];
        float nx = x + vx * dt;
        float nz = z + vz * dt;

        if (nx - h < b.minX()) {
            nx = b.minX() + h;
            vx = Math.abs(vx);
        } else if (nx + h > b.maxX()) {
            nx = b.maxX() - h;
            vx = -Math.abs(vx);
        }
        if (nz - h < b.minZ()) {
            nz = b.minZ() + h;
            vz = Math.abs(vz);
        } else if (nz + h > b.maxZ()) {
            nz = b.maxZ() - h;
            vz = -Math.abs(vz);
        }

        // Obstacles: what overlaps the box from the feet + step up to the head blocks; try each axis alone.
        final float low = y - h + step, high = y + h;
        if (world.overlapsBox(nx - h, low, nz - h, nx + h, high, nz + h)) {
            if (!world.overlapsBox(nx - h, low, z - h, nx + h, high, z + h)) {
                nz = z;
                vz = -vz;
            } else if (!world.overlapsBox(x - h, low, nz - h, x + h, high, nz + h)) {
                nx = x;
                vx = -vx;
            } else {
                nx = x;
                nz = z;
                vx = -vx;
                vz = -vz;
            }
        }

        float ny = y + vy * dt;
        float ground = world.groundHeight(nx - h, nz - h, nx + h, nz + h, y - h + step);
        if (ground == Float.NEGATIVE_INFINITY) {
            ground = b.minY();
        }
        if (ny - h < ground) {
            ny = ground + h;
            if (vy < 0f) {
                vy = -vy * RESTITUTION;
                if (vy < MIN_HOP) {
                    vy = 3f + 0.25f * (i & 7);       // per-entity hop so they keep bouncing
                }
            }
        }
        if (ny + h > b.maxY()) {
            ny = b.maxY() - h;
            vy = -Math.abs(vy);
        }

        e.x[i] = nx;
        e.y[i] = ny;
        e.z[i] = nz;
        e.vx[i] = vx;
        e.vy[i] = vy;
        e.vz[i] = vz;
        e.yaw[i] = wrap(e.yaw[i] + e.spin[i] * dt);
        float ph = wrap(e.phase[i] + e.bobRate[i] * dt);
        e.phase[i] = ph;
        e.scale[i] = 1f + 0.12f * FloatTrig.sin(ph);
    }

    private static float wrap(float radians) {
        if (radians >= TWO_PI) {
            return radians - TWO_PI;
        }
        if (radians < 0f) {
            return radians + TWO_PI;
        }
        return radians;
    }
}
