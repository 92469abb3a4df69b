package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * The demo itself in a real window: a child JVM runs {@code DemoMain} under {@code xvfb-run -a} (Mesa
 * llvmpipe), loads the {@code tiny} level through the real asset pipeline, draws frames and writes a
 * screenshot, which must show the level: many colours, no colour covering most of the image, and
 * differences between the middle band (the level) and the sky. Skipped without {@code xvfb-run}.
 */
class WindowedDemoTest {

    @Test
    void theWindowedDemoDrawsTheLevel() throws Exception {
        Path xvfbRun = onPath("xvfb-run");
        assumeTrue(xvfbRun != null, "windowed demo skipped: xvfb-run is not on PATH (apt-get install xvfb xauth)");
        Path out = Path.of("target", "windowed-demo").toAbsolutePath();
        Files.createDirectories(out);
        Path png = out.resolve("demo.png");
        Path summary = out.resolve("summary.json");
        Path log = out.resolve("demo.log");
        Files.deleteIfExists(png);
        String java = ProcessHandle.current().info().command().orElseThrow();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(xvfbRun.toString(), "-a", "-s", "-screen 0 1280x720x24",
                java, "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                "-cp", cp, "dev.weft.demo.DemoMain",
                "--display", "window", "--level", "tiny", "--frames", "90", "--entities", "2000",
                "--size", "640x360", "--asset-latency-ms", "20", "--screenshot", png.toString(),
                "--summary", summary.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = p.waitFor(5, TimeUnit.MINUTES);   // hang guard only
        if (!ended) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        String text = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(ended, "the windowed demo hung:\n" + text);
        assertEquals(0, p.exitValue(), text);
        assertTrue(text.contains("display window"), "the window backend ran, not a fallback:\n" + text);
        assertTrue(text.contains("level 'tiny' loaded"), text);
        String json = Files.readString(summary);
        assertTrue(json.contains("\"frames\": 90") || json.contains("\"frames\":90"), json);

        BufferedImage img = ImageIO.read(png.toFile());
        assertNotNull(img, "a readable PNG:\n" + text);
        Map<Integer, Integer> counts = new HashMap<>();
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                counts.merge(img.getRGB(x, y) & 0xFFFFFF, 1, Integer::sum);
            }
        }
        int pixels = img.getWidth() * img.getHeight();
        int commonest = counts.values().stream().max(Integer::compare).orElse(0);
        assertTrue(counts.size() > 300, "a textured, lit level has many colours, got " + counts.size());
        assertTrue(commonest < pixels * 0.8, "one colour covers " + commonest + " of " + pixels + " pixels");
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path c = Path.of(dir, name);
            if (!dir.isEmpty() && Files.isRegularFile(c) && Files.isExecutable(c)) {
                return c;
            }
        }
        return null;
    }
}
