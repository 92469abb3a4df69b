package dev.weft.demo.render;

import dev.weft.assets.ProceduralMeshes;

import dev.weft.assets.TextureSource;

import dev.weft.assets.MeshSource;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.opengl.GL33C.*;

import dev.weft.demo.window.Display;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import javax.imageio.ImageIO;
import org.joml.Matrix4f;
import org.joml.Vector3f;
import org.joml.Vector4f;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Real GL rendering, read back and checked pixel by pixel. Runs on the offscreen EGL display (no X server
 * needed) or, failing that, a window; skipped when neither exists. Nothing here depends on how fast
 * frames are drawn: every picture is a function of its inputs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OffscreenRenderTest {
    private static final int W = 640;
    private static final int H = 360;
    private static final Path OUT = Path.of("target", "render-smoke");

    private Display display;

    @BeforeAll
    void open() {
        display = GlTestDisplays.openOrSkip(W, H);
    }

    @AfterAll
    void close() {
        if (display != null) {
            display.close();
        }
    }

    @Test
    void smokeScreenshotIsNeitherBlankNorOneColour() throws Exception {
        Path png = OUT.resolve("offscreen-" + display.kind().name().toLowerCase() + ".png");
        Files.deleteIfExists(png);
        var log = new ByteArrayOutputStream();
        RenderSmoke.Options options = RenderSmoke.Options.defaults().withFrames(12, 4).withScreenshot(png);
        RenderSmoke.Result result = RenderSmoke.render(display, options,
                new PrintStream(log, true, StandardCharsets.UTF_8));
        assertEquals(12, result.framesDrawn());
        RgbaImage shot = result.screenshot().orElseThrow(() -> new AssertionError("no screenshot: " + log));
        shot.writePng(png);

        BufferedImage back = ImageIO.read(png.toFile());
        assertNotNull(back, "PNG readable by ImageIO");
        assertEquals(W, back.getWidth());
        assertEquals(H, back.getHeight());
        Map<Integer, Integer> histogram = new HashMap<>();
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                histogram.merge(back.getRGB(x, y) & 0xFFFFFF, 1, Integer::sum);
            }
        }
        int commonest = histogram.values().stream().max(Integer::compare).orElseThrow();
        assertTrue(histogram.size() > 500, "expected a textured, lit scene, got " + histogram.size() + " colours");
        assertTrue(commonest < W * H / 2, "one colour covers " + commonest + " of " + W * H + " pixels");
        assertTrue(shot.lumaVariance() > 200.0, "luma variance " + shot.lumaVariance());
        // The sky (clear colour) is at the top, the ground lower down: the image is right side up.
        // RenderSmoke clears to (0.30, 0.42, 0.58): the sky must be at the top, the ground at the bottom.
        float[] sky = {0.30f, 0.42f, 0.58f, 1f};
        assertColour(sky, shot.rgb(W / 2, 2), "top row is sky");
        assertFalse(near(shot.rgb(W - 4, H - 4), sky), "bottom row is ground");
    }

    @Test
    void loadingBarFillMatchesTheFraction() throws Exception {
        try (Renderer r = Renderer.create(display)) {
            Rect track = OverlayLayout.loadingBarTrack(W, H);
            for (float fraction : new float[] {0f, 0.25f, 0.7f, 1f}) {
                r.beginFrame();
                r.drawLoadingScreen(fraction);
                RgbaImage img = r.readFrame().orElseThrow();
                if (fraction == 0.7f) {
                    img.writePng(OUT.resolve("loading-70.png"));
                }
                int row = track.y() + track.height() / 2;
                int filled = 0;
                for (int x = track.x(); x < track.right(); x++) {
                    int c = img.rgb(x, row);
                    if (near(c, OverlayLayout.LOADING_FILL) || near(c, OverlayLayout.LOADING_FILL_EDGE)) {
                        filled++;
                    } else {
                        assertColour(OverlayLayout.LOADING_TRACK, c, "unfilled track at x=" + x);
                    }
                }
                assertEquals(OverlayLayout.loadingFillWidth(track, fraction), filled, "fill for " + fraction);
                assertColour(OverlayLayout.LOADING_BACKGROUND, img.rgb(3, 3), "background corner");
                Rect frame = OverlayLayout.loadingBarFrame(W, H);
                assertColour(OverlayLayout.LOADING_FRAME, img.rgb(frame.x(), row), "bar frame");
            }
        }
    }

    @Test
    void frameGraphDrawsBarsByBudgetAndTheBudgetLine() {
        FrameTimeGraph graph = new FrameTimeGraph();
        for (int i = 0; i < 200; i++) {
            graph.recordMillis(8.0);
        }
        for (int i = 0; i < 40; i++) {
            graph.recordMillis(40.0);
        }
        try (Renderer r = Renderer.create(display)) {
            r.setClearColour(0f, 0f, 0f);
            r.beginFrame();
            r.drawFrameGraph(graph);
            RgbaImage img = r.readFrame().orElseThrow();
            Rect plot = OverlayLayout.graphPlot(OverlayLayout.graphPanel(W, H, graph.capacity()));
            double scale = OverlayLayout.graphScaleMillis(graph);
            int base = plot.bottom() - 2;
            assertColour(OverlayLayout.GRAPH_OK, img.rgb(plot.x() + 100 * 2 + 1, base), "an 8 ms bar");
            assertColour(OverlayLayout.GRAPH_HITCH, img.rgb(plot.x() + 220 * 2 + 1, base), "a 40 ms bar");
            int budgetY = (int) Math.floor(plot.bottom() - graph.budgetMillis() / scale * plot.height());
            int line = img.rgb(plot.x() + 50, budgetY);
            assertTrue((line >>> 16) > 200 && (line & 0xFF) > 200, "budget line at y=" + budgetY + " is "
                    + Integer.toHexString(line));
            int above8msBar = plot.bottom() - (int) Math.ceil(8.0 / scale * plot.height()) - 3;
            assertEquals(0x000000, img.rgb(plot.x() + 100 * 2 + 1, above8msBar) & 0xF0F0F0,
                    "panel is dark above a short bar");
        }
    }

    @Test
    void litTexturedCubesLandWhereTheCameraSaysAndAreRightSideUp() {
        try (Renderer r = Renderer.create(display)) {
            Texture red = r.uploadTexture(solid(0xFF2020));
            Texture blue = r.uploadTexture(solid(0x2020FF));
            Mesh cube = r.uploadMesh(heapCopy(ProceduralMeshes.cube(0.6f))); // heap, big-endian: copied on upload
            Camera cam = new Camera().lookAt(new Vector3f(0, 0, 4), new Vector3f(0, 0, 0)).perspective(60, 0.1f, 50);
            // Light travels away from the camera, so faces turned to the camera get full light, no ambient.
            DirectionalLight light = new DirectionalLight(new Vector3f(0, 0, -1), new Vector3f(1, 1, 1), new Vector3f());
            Vector3f top = new Vector3f(0, 0.8f, 0);
            Vector3f bottom = new Vector3f(0, -0.8f, 0);
            r.setClearColour(0f, 0f, 0f);
            r.beginFrame();
            r.drawScene(cam, light, List.of(
                    new DrawCommand(cube, red, new Matrix4f().translation(top)),
                    new DrawCommand(cube, blue, new Matrix4f().translation(bottom))));
            RgbaImage img = r.readFrame().orElseThrow();
            int[] topPx = toPixel(cam, top.add(0, 0, 0.3f, new Vector3f()));
            int[] bottomPx = toPixel(cam, bottom.add(0, 0, 0.3f, new Vector3f()));
            assertTrue(topPx[1] < H / 2 && bottomPx[1] > H / 2, "projection puts +y in the upper half");
            assertNearRgb(0xFF2020, img.rgb(topPx[0], topPx[1]), 6, "red cube front face, fully lit");
            assertNearRgb(0x2020FF, img.rgb(bottomPx[0], bottomPx[1]), 6, "blue cube front face, fully lit");
            assertEquals(0x000000, img.rgb(5, H / 2), "clear colour beside the cubes");
        }
    }

    @Test
    void texturesGetAFullMipChain() {
        try (Renderer r = Renderer.create(display)) {
            Texture t = r.uploadTexture(ProceduralTextures.checker(64, 4, 0xFFFFFF, 0x000000));
            assertEquals(7, t.mipLevels());
            glBindTexture(GL_TEXTURE_2D, t.id);
            assertEquals(1, glGetTexLevelParameteri(GL_TEXTURE_2D, t.mipLevels() - 1, GL_TEXTURE_WIDTH));
            assertEquals(GL_LINEAR_MIPMAP_LINEAR, glGetTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER));
            glBindTexture(GL_TEXTURE_2D, 0);
            r.release(t);
            assertFalse(glIsTexture(t.id), "release deletes the GL texture");
        }
    }

    @Test
    void glCallsFromAnotherThreadAreRefused() {
        try (Renderer r = Renderer.create(display)) {
            var e = assertThrows(ExecutionException.class,
                    () -> CompletableFuture.runAsync(r::beginFrame).get());
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("GL context belongs to"), e.getCause().getMessage());
        }
    }

    // --- helpers -------------------------------------------------------------------------------------

    private static TextureSource solid(int rgb) {
        ByteBuffer px = ByteBuffer.allocateDirect(4 * 4 * 4);
        for (int i = 0; i < 16; i++) {
            px.put((byte) (rgb >>> 16)).put((byte) (rgb >>> 8)).put((byte) rgb).put((byte) 0xFF);
        }
        return TextureSource.of(4, 4, px.flip());
    }

    private static MeshSource heapCopy(MeshSource m) {
        FloatBuffer v = ByteBuffer.allocate(m.vertices().remaining() * 4).order(ByteOrder.BIG_ENDIAN).asFloatBuffer();
        v.put(m.vertices().duplicate()).flip();
        IntBuffer i = IntBuffer.allocate(m.indices().remaining());
        i.put(m.indices().duplicate()).flip();
        return MeshSource.of(v, i);
    }

    private static int[] toPixel(Camera cam, Vector3f world) {
        Vector4f clip = cam.viewProjection((float) W / H, new Matrix4f()).transform(new Vector4f(world, 1f));
        float x = clip.x / clip.w;
        float y = clip.y / clip.w;
        return new int[] {Math.round((x + 1f) / 2f * W), Math.round((1f - y) / 2f * H)};
    }

    private static boolean near(int rgb, float[] expected) {
        return Math.abs((rgb >>> 16) - Math.round(expected[0] * 255)) <= 2
                && Math.abs((rgb >>> 8 & 0xFF) - Math.round(expected[1] * 255)) <= 2
                && Math.abs((rgb & 0xFF) - Math.round(expected[2] * 255)) <= 2;
    }

    private static void assertColour(float[] expected, int actual, String what) {
        assertTrue(near(actual, expected), what + ": expected about " + Math.round(expected[0] * 255) + ","
                + Math.round(expected[1] * 255) + "," + Math.round(expected[2] * 255) + " got #"
                + String.format("%06x", actual));
    }

    private static void assertNearRgb(int expected, int actual, int tolerance, String what) {
        for (int shift = 16; shift >= 0; shift -= 8) {
            int e = expected >>> shift & 0xFF;
            int a = actual >>> shift & 0xFF;
            assertTrue(Math.abs(e - a) <= tolerance, what + ": expected #" + String.format("%06x", expected)
                    + " got #" + String.format("%06x", actual));
        }
    }
}
