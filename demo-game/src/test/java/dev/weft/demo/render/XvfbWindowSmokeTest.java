package dev.weft.demo.render;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.*;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * The windowed path end to end: a child JVM opens a real GLFW/GLX window on a private Xvfb server
 * ({@code xvfb-run -a}, Mesa llvmpipe), draws 30 frames and writes a screenshot that is checked here.
 * Skipped when {@code xvfb-run} is not installed (Debian: xvfb xauth).
 */
class XvfbWindowSmokeTest {
    private static final Path OUT = Path.of("target", "render-smoke");

    @Test
    void windowUnderXvfbRendersAndScreenshots() throws Exception {
        Path xvfbRun = ChildJvm.onPath("xvfb-run").orElse(null);
        assumeTrue(xvfbRun != null, "windowed smoke skipped: xvfb-run is not on PATH (Debian: apt-get install xvfb xauth)");
        Path png = OUT.resolve("xvfb-window.png").toAbsolutePath();
        Files.deleteIfExists(png);
        ChildJvm.Outcome run = ChildJvm.runSmoke(
                List.of(xvfbRun.toString(), "-a", "-s", "-screen 0 1280x720x24"),
                List.of("--display", "window", "--require-gl", "--frames", "30", "--size", "640x360",
                        "--screenshot", png.toString()),
                OUT.resolve("xvfb-window.log"), env -> {});
        String out = run.output();
        assertEquals(0, run.exitCode(), "child failed:\n" + out);
        assertTrue(out.contains("render-smoke: display window: GLFW window on X11"),
                "the window backend itself must have run, not a fallback:\n" + out);
        assertTrue(out.contains("render-smoke: 30 frames (10 loading)"), out);

        BufferedImage img = ImageIO.read(png.toFile());
        assertNotNull(img, "screenshot is a readable PNG:\n" + out);
        assertEquals(640, img.getWidth());
        assertEquals(360, img.getHeight());
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                colours.add(img.getRGB(x, y) & 0xFFFFFF);
            }
        }
        assertTrue(colours.size() > 500, "expected a lit, textured scene, got " + colours.size() + " colours");
        int sky = img.getRGB(320, 2) & 0xFFFFFF;
        assertTrue(Math.abs((sky >>> 16) - 77) <= 2 && Math.abs((sky & 0xFF) - 148) <= 2,
                "top row is the sky (right side up), got #" + Integer.toHexString(sky));
    }
}
