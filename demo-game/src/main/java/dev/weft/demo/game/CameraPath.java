package dev.weft.demo.game;

import dev.weft.demo.game.CollisionWorld.WorldBounds;
import org.joml.Vector3f;

/**
 * The scripted camera: a slow orbit around the level's centre, rising and dipping, looking at a point
 * that wanders near the centre. A pure function of simulated time, so every run and every machine sees
 * the same frames for the same tick numbers.
 */
final class CameraPath {
    private CameraPath() {}

    /** Writes the eye and target at {@code seconds} of simulated time into {@code eye} and {@code target}. */
    static void at(double seconds, WorldBounds b, Vector3f eye, Vector3f target) {
        double size = b.horizontalSize();
        double angle = 0.6 + 0.08 * seconds;
        double radius = 0.42 * size;
        double height = 0.17 * size + 0.05 * size * StrictMath.sin(0.31 * seconds);
        eye.set((float) (b.centreX() + StrictMath.cos(angle) * radius), (float) (b.minY() + height),
                (float) (b.centreZ() + StrictMath.sin(angle) * radius));
        double wander = 0.5 * angle + 1.0;
        target.set((float) (b.centreX() + 0.1 * size * StrictMath.cos(wander)), b.minY() + 1f,
                (float) (b.centreZ() + 0.1 * size * StrictMath.sin(wander)));
    }

    /** A far clip distance that covers the level from anywhere on the path. */
    static float farPlane(WorldBounds b) {
        return Math.max(50f, 3f * b.horizontalSize());
    }
}
