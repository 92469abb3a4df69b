package dev.weft.demo.render;

import org.joml.Matrix4f;
import org.joml.Vector3f;
import org.joml.Vector3fc;

/**
 * A perspective look-at camera (OpenGL clip conventions: right-handed, depth -1..1). Mutable; use it from
 * one thread (the game loop's).
 */
public final class Camera {
    private final Vector3f eye = new Vector3f(0f, 2f, 6f);
    private final Vector3f target = new Vector3f();
    private final Vector3f up = new Vector3f(0f, 1f, 0f);
    private float fovYRadians = (float) Math.toRadians(60.0);
    private float near = 0.1f;
    private float far = 200f;

    /** Places the camera at {@code eye} looking at {@code target}, +y up. */
    public Camera lookAt(Vector3fc newEye, Vector3fc newTarget) {
        eye.set(newEye);
        target.set(newTarget);
        return this;
    }

    /** Sets the vertical field of view (degrees) and the clip planes. */
    public Camera perspective(float fovYDegrees, float nearPlane, float farPlane) {
        if (!(fovYDegrees > 0f && fovYDegrees < 180f) || !(nearPlane > 0f) || !(farPlane > nearPlane)) {
            throw new IllegalArgumentException("bad perspective: fov=" + fovYDegrees + " near=" + nearPlane
                    + " far=" + farPlane);
        }
        fovYRadians = (float) Math.toRadians(fovYDegrees);
        near = nearPlane;
        far = farPlane;
        return this;
    }

    public Vector3fc eye() {
        return eye;
    }

    public Vector3fc target() {
        return target;
    }

    /** World-to-view matrix into {@code dest}. */
    public Matrix4f view(Matrix4f dest) {
        return dest.setLookAt(eye, target, up);
    }

    /** View-to-clip matrix for a viewport of the given width/height ratio into {@code dest}. */
    public Matrix4f projection(float aspect, Matrix4f dest) {
        return dest.setPerspective(fovYRadians, aspect, near, far);
    }

    /** {@code projection * view} into {@code dest}. */
    public Matrix4f viewProjection(float aspect, Matrix4f dest) {
        return projection(aspect, dest).lookAt(eye, target, up);
    }
}
