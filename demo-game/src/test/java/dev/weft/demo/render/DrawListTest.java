package dev.weft.demo.render;

import dev.weft.assets.ProceduralMeshes;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.demo.window.Display;
import dev.weft.demo.window.DisplayConfig;
import dev.weft.demo.window.DisplayKind;
import dev.weft.demo.window.Displays;
import java.util.List;
import org.joml.Matrix4f;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DrawListTest {
    private Display display;
    private Renderer renderer;
    private Mesh cube;
    private Texture tex;

    @BeforeEach
    void open() {
        display = Displays.open(DisplayConfig.defaults().withPreferred(DisplayKind.NONE), notice -> { });
        renderer = Renderer.create(display);
        cube = renderer.uploadMesh(ProceduralMeshes.cube(1f));
        tex = renderer.uploadTexture(ProceduralTextures.checker(8, 2, 0xFF0000, 0x00FF00));
    }

    @AfterEach
    void close() {
        renderer.close();
        display.close();
    }

    @Test
    void keepsEachDrawsHandlesAndACopyOfItsMatrixAcrossGrowth() {
        DrawList draws = new DrawList(1);
        float[] models = new float[100 * DrawList.MATRIX_FLOATS];
        for (int i = 0; i < 100; i++) {
            new Matrix4f().translation(i, 2 * i, 3 * i).get(models, i * DrawList.MATRIX_FLOATS);
            draws.add(cube, tex, models, i * DrawList.MATRIX_FLOATS);
        }
        java.util.Arrays.fill(models, 0f);                   // the list copied the matrices
        assertEquals(100, draws.size());
        Matrix4f m = new Matrix4f();
        for (int i = 0; i < 100; i++) {
            assertSame(cube, draws.mesh(i));
            assertSame(tex, draws.texture(i));
            assertEquals(new Matrix4f().translation(i, 2 * i, 3 * i), draws.model(i, m));
        }
        assertThrows(IndexOutOfBoundsException.class, () -> draws.mesh(100));
        draws.clear();
        assertEquals(0, draws.size());
        assertThrows(IndexOutOfBoundsException.class, () -> draws.mesh(0));
        assertThrows(NullPointerException.class, () -> draws.add(null, tex, models, 0));
    }

    @Test
    void ofCommandsKeepsTheirOrderAndTheRendererCountsEveryDraw() {
        Matrix4f a = new Matrix4f().translation(1, 0, 0);
        Matrix4f b = new Matrix4f().scale(2f);
        DrawList draws = DrawList.of(List.of(new DrawCommand(cube, tex, a), new DrawCommand(cube, tex, b)));
        assertEquals(2, draws.size());
        assertEquals(a, draws.model(0, new Matrix4f()));
        assertEquals(b, draws.model(1, new Matrix4f()));
        renderer.beginFrame();
        long before = renderer.drawCalls();
        renderer.drawScene(new Camera(), DirectionalLight.defaults(), draws);
        assertEquals(before + 2, renderer.drawCalls());
        renderer.release(tex);
        var e = assertThrows(IllegalStateException.class,
                () -> renderer.drawScene(new Camera(), DirectionalLight.defaults(), draws));
        assertTrue(e.getMessage().contains("draw 0"), e.getMessage());
    }
}
