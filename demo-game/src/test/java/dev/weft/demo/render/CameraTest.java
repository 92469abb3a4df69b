package dev.weft.demo.render;

import static org.junit.jupiter.api.Assertions.*;

import org.joml.Matrix4f;
import org.joml.Vector3f;
import org.joml.Vector4f;
import org.junit.jupiter.api.Test;

class CameraTest {

    private static Vector3f ndc(Camera cam, float aspect, Vector3f world) {
        Vector4f clip = cam.viewProjection(aspect, new Matrix4f()).transform(new Vector4f(world, 1f));
        return new Vector3f(clip.x / clip.w, clip.y / clip.w, clip.z / clip.w);
    }

    @Test
    void targetProjectsToTheCentreInsideTheDepthRange() {
        Camera cam = new Camera().lookAt(new Vector3f(3, 4, 5), new Vector3f(1, 0, -1)).perspective(60, 0.1f, 100);
        Vector3f c = ndc(cam, 16f / 9f, new Vector3f(1, 0, -1));
        assertEquals(0f, c.x, 1e-5f);
        assertEquals(0f, c.y, 1e-5f);
        assertTrue(c.z > -1f && c.z < 1f, "inside the clip range: " + c.z);
    }

    @Test
    void upIsUpAndRightIsRight() {
        Camera cam = new Camera().lookAt(new Vector3f(0, 0, 5), new Vector3f(0, 0, 0));
        assertTrue(ndc(cam, 1f, new Vector3f(0, 1, 0)).y > 0f);
        assertTrue(ndc(cam, 1f, new Vector3f(1, 0, 0)).x > 0f);
    }

    @Test
    void rejectsNonsensePerspective() {
        assertThrows(IllegalArgumentException.class, () -> new Camera().perspective(0, 0.1f, 10));
        assertThrows(IllegalArgumentException.class, () -> new Camera().perspective(60, 1f, 0.5f));
    }
}
