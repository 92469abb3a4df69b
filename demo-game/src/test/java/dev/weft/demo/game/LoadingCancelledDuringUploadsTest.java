package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.JobSystem;
import dev.weft.assets.MeshSource;
import dev.weft.assets.TextureSource;
import dev.weft.demo.DemoMain;
import dev.weft.demo.render.Camera;
import dev.weft.demo.render.DirectionalLight;
import dev.weft.demo.render.DrawList;
import dev.weft.demo.render.FrameTimeGraph;
import dev.weft.demo.render.Mesh;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.render.RgbaImage;
import dev.weft.demo.render.Texture;
import dev.weft.demo.window.Display;
import dev.weft.demo.window.DisplayConfig;
import dev.weft.demo.window.DisplayKind;
import dev.weft.demo.window.Displays;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The window closed (or the load deadline passed) while the loaded level's uploads were still queued:
 * the loading phase cancelled the load, which frees the level's CPU pixels, but left the upload jobs
 * queued, and the game's {@code jobs.close()} on the main thread then ran them, each handing the renderer
 * pixels already freed (glTexImage2D reading freed native memory). A probe doing what the phase and the
 * game's teardown do read changed bytes in 74 of 150 such uploads. The phase now cancels its queued uploads
 * before it cancels the load.
 */
@Timeout(120)
class LoadingCancelledDuringUploadsTest {
    @Test
    void windowClosedDuringTheUploadsRunsNoUploadAfterThePixelsAreFreed() throws Exception {
        Display display = Displays.openFirst(new DisplayConfig(320, 200, "test", DisplayKind.NONE, false),
                List.of(DisplayKind.NONE), s -> { });
        UploadWatchingRenderer renderer = new UploadWatchingRenderer(Renderer.create(display), display);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GameConfig cfg = GameConfig.builder().loading(DemoMain::pipelineLoading).headless(true).level("tiny").workers(2).assetLatency(Duration.ZERO)
                .mainThreadBudgetNanos(1)                     // one upload per loading frame
                .out(new PrintStream(bytes, true, StandardCharsets.UTF_8)).build();
        JobSystem jobs = JobSystem.builder().name("test").workers(2).build();
        jobs.bindMainThread();
        LevelLoading loading = DemoMain.pipelineLoading(jobs, Duration.ZERO);
        try {
            LoadingPhase phase = new LoadingPhase(cfg, display, renderer, jobs, new FrameTimeGraph());
            GameException e = assertThrows(GameException.class, () -> phase.load(loading, new GpuTable()));
            assertTrue(e.getMessage().contains("window closed while loading"), e.getMessage());
            assertTrue(renderer.uploads >= 1, "the window closed during the uploads");
            renderer.phaseEnded = true;
        } finally {
            loading.close();                                  // what Game does after the loop: loader, then jobs
            jobs.close();                                     // on the main thread: runs what is still queued
            display.close();
        }
        assertEquals(0, renderer.uploadsAfterThePhase, "uploads ran after the load was cancelled (its pixels freed)");
    }

    /** The headless renderer, counting uploads; the first one closes the window. Main thread only. */
    private static final class UploadWatchingRenderer implements Renderer {
        private final Renderer inner;
        private final Display display;
        int uploads;
        int uploadsAfterThePhase;
        boolean phaseEnded;

        UploadWatchingRenderer(Renderer inner, Display display) {
            this.inner = inner;
            this.display = display;
        }

        private void upload() {
            uploads++;
            if (phaseEnded) {
                uploadsAfterThePhase++;
            }
            display.requestClose();                           // the player closes the window now
        }

        @Override public boolean hasGl() { return inner.hasGl(); }
        @Override public String description() { return inner.description(); }
        @Override public Mesh uploadMesh(MeshSource source) { upload(); return inner.uploadMesh(source); }
        @Override public Texture uploadTexture(TextureSource source) { upload(); return inner.uploadTexture(source); }
        @Override public void release(Mesh mesh) { inner.release(mesh); }
        @Override public void release(Texture texture) { inner.release(texture); }
        @Override public void setClearColour(float r, float g, float b) { inner.setClearColour(r, g, b); }
        @Override public void beginFrame() { inner.beginFrame(); }
        @Override public void drawScene(Camera camera, DirectionalLight light, DrawList draws) { inner.drawScene(camera, light, draws); }
        @Override public void drawLoadingScreen(float fraction) { inner.drawLoadingScreen(fraction); }
        @Override public void drawFrameGraph(FrameTimeGraph graph) { inner.drawFrameGraph(graph); }
        @Override public Optional<RgbaImage> readFrame() { return inner.readFrame(); }
        @Override public long drawCalls() { return inner.drawCalls(); }
        @Override public void close() { inner.close(); }
    }
}
