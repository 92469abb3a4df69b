package dev.weft.demo.render;

import dev.weft.assets.ProceduralMeshes;

import dev.weft.assets.TextureSource;

import dev.weft.assets.MeshSource;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.demo.window.Display;
import dev.weft.demo.window.DisplayConfig;
import dev.weft.demo.window.DisplayKind;
import dev.weft.demo.window.Displays;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.joml.Matrix4f;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@code --display none} path: no GL, same checks, the loop still runs. */
class HeadlessRendererTest {
    private Display display;
    private Renderer renderer;

    @BeforeEach
    void open() {
        List<String> notices = new ArrayList<>();
        display = Displays.open(DisplayConfig.defaults().withPreferred(DisplayKind.NONE), notices::add);
        renderer = Renderer.create(display);
        assertEquals(List.of(), notices, "NONE never falls back");
    }

    @AfterEach
    void close() {
        renderer.close();
        display.close();
    }

    @Test
    void noneDisplayGivesAHeadlessRenderer() {
        assertEquals(DisplayKind.NONE, display.kind());
        assertFalse(display.hasGl());
        assertFalse(renderer.hasGl());
        assertEquals(1280, display.framebufferWidth());
        renderer.beginFrame();
        assertTrue(renderer.readFrame().isEmpty());
    }

    @Test
    void rejectsMalformedMeshesLikeTheGlRenderer() {
        FloatBuffer sevenFloats = FloatBuffer.allocate(7);
        IntBuffer tri = IntBuffer.wrap(new int[] {0, 1, 2});
        assertThrows(IllegalArgumentException.class, () -> renderer.uploadMesh(MeshSource.of(sevenFloats, tri)));
        FloatBuffer threeVertices = FloatBuffer.allocate(3 * MeshSource.FLOATS_PER_VERTEX);
        var e = assertThrows(IllegalArgumentException.class,
                () -> renderer.uploadMesh(MeshSource.of(threeVertices, IntBuffer.wrap(new int[] {0, 1, 3}))));
        assertTrue(e.getMessage().contains("index 3"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> renderer.uploadMesh(MeshSource.of(threeVertices, IntBuffer.wrap(new int[] {0, 1}))));
        Mesh ok = renderer.uploadMesh(MeshSource.of(threeVertices, IntBuffer.wrap(new int[] {0, 1, 2})));
        assertEquals(3, ok.vertexCount());
        assertEquals(0, threeVertices.position(), "upload leaves the caller's buffer alone");
    }

    @Test
    void rejectsTexturesWhoseBufferDoesNotMatchTheSize() {
        assertThrows(IllegalArgumentException.class,
                () -> renderer.uploadTexture(TextureSource.of(4, 4, ByteBuffer.allocate(4 * 4 * 3))));
        assertThrows(IllegalArgumentException.class,
                () -> renderer.uploadTexture(TextureSource.of(0, 4, ByteBuffer.allocate(0))));
        Texture t = renderer.uploadTexture(TextureSource.of(4, 2, ByteBuffer.allocate(32)));
        assertEquals(3, t.mipLevels());
    }

    @Test
    void refusesReleasedResourcesAndOtherThreads() throws Exception {
        Mesh cube = renderer.uploadMesh(ProceduralMeshes.cube(1f));
        Texture tex = renderer.uploadTexture(ProceduralTextures.checker(8, 2, 0xFF0000, 0x00FF00));
        renderer.beginFrame();
        renderer.drawScene(new Camera(), DirectionalLight.defaults(), List.of(new DrawCommand(cube, tex, new Matrix4f())));
        renderer.release(cube);
        renderer.release(cube); // idempotent
        assertTrue(cube.isReleased());
        assertThrows(IllegalStateException.class, () -> renderer.drawScene(new Camera(), DirectionalLight.defaults(),
                List.of(new DrawCommand(cube, tex, new Matrix4f()))));
        var fromWorker = CompletableFuture.runAsync(() -> renderer.uploadMesh(ProceduralMeshes.cube(1f)));
        var e = assertThrows(ExecutionException.class, fromWorker::get);
        assertInstanceOf(IllegalStateException.class, e.getCause());
    }

    @Test
    void smokeLoopRunsWithoutGlAndSkipsTheScreenshot() {
        var out = new ByteArrayOutputStream();
        RenderSmoke.Options options = RenderSmoke.Options.defaults().withDisplay(DisplayKind.NONE).withFrames(9, 3)
                .withScreenshot(java.nio.file.Path.of("target/never-written.png"));
        RenderSmoke.Result r = RenderSmoke.render(display, options, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(9, r.framesDrawn());
        assertEquals(9, r.graph().size());
        assertTrue(r.screenshot().isEmpty());
        // 3 loading screens + 6 scenes of 10 meshes + 9 graphs
        assertEquals(3 + 6 * 10 + 9, r.drawCalls());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("render-smoke: 9 frames (3 loading)"));
    }

    @Test
    void commandLineParsing() {
        RenderSmoke.Options o = RenderSmoke.Options.parse("--display", "offscreen", "--frames", "30", "--size", "320x200",
                "--screenshot", "x.png", "--require-gl", "--loading-frames", "50");
        assertEquals(DisplayKind.OFFSCREEN, o.display());
        assertEquals(320, o.width());
        assertEquals(200, o.height());
        assertEquals(30, o.loadingFramesResolved(), "loading frames are capped at the frame count");
        assertTrue(o.requireGl());
        assertEquals(10, RenderSmoke.Options.parse("--frames", "30").loadingFramesResolved());
        assertEquals(DisplayKind.WINDOW, RenderSmoke.Options.parse("--display", "auto").display());
        assertThrows(IllegalArgumentException.class, () -> RenderSmoke.Options.parse("--frames"));
        assertThrows(IllegalArgumentException.class, () -> RenderSmoke.Options.parse("--display", "vulkan"));
        assertEquals(2, RenderSmoke.run(new String[] {"--bogus"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    }

    @Test
    void fallbackChainsGoDownhill() {
        assertEquals(List.of(DisplayKind.WINDOW, DisplayKind.OFFSCREEN, DisplayKind.NONE),
                DisplayKind.WINDOW.fallbackChain());
        assertEquals(List.of(DisplayKind.NONE), DisplayKind.NONE.fallbackChain());
    }
}
