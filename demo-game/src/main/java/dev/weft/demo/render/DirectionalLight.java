package dev.weft.demo.render;

import org.joml.Vector3f;
import org.joml.Vector3fc;

/**
 * A sun-like light plus a flat ambient term: {@code albedo * (ambient + colour * max(0, dot(n, -direction)))}.
 *
 * @param direction the way the light travels (from the light into the scene); normalised on construction
 * @param colour    linear RGB intensity of the directional part
 * @param ambient   linear RGB added everywhere
 */
public record DirectionalLight(Vector3fc direction, Vector3fc colour, Vector3fc ambient) {
    public DirectionalLight {
        Vector3f d = new Vector3f(direction);
        if (!(d.lengthSquared() > 0f) || !d.isFinite()) {
            throw new IllegalArgumentException("light direction must be a finite non-zero vector: " + direction);
        }
        direction = d.normalize();
        colour = new Vector3f(colour);
        ambient = new Vector3f(ambient);
    }

    /** Warm light from above and to the front-left, soft blue ambient. */
    public static DirectionalLight defaults() {
        return new DirectionalLight(new Vector3f(0.4f, -1.0f, -0.6f),
                new Vector3f(0.95f, 0.90f, 0.80f), new Vector3f(0.18f, 0.20f, 0.26f));
    }
}
