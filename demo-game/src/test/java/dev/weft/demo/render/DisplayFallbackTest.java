package dev.weft.demo.render;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.*;

import dev.weft.demo.window.DisplayConfig;
import dev.weft.demo.window.DisplayKind;
import dev.weft.demo.window.DisplayUnavailableException;
import dev.weft.demo.window.Displays;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Detection and fallback: each skipped backend is announced in one line and the run goes on. */
class DisplayFallbackTest {
    private static final Path OUT = Path.of("target", "render-smoke");

    @Test
    void windowWithoutDisplayIsRefusedWithAReason() {
        String display = System.getenv("DISPLAY");
        assumeTrue(display == null || display.isBlank(), "DISPLAY is set here, so a window may well open");
        List<String> notices = new ArrayList<>();
        var e = assertThrows(DisplayUnavailableException.class, () -> Displays.openFirst(
                DisplayConfig.defaults(), List.of(DisplayKind.WINDOW), notices::add));
        assertTrue(e.getMessage().contains("no DISPLAY set"), e.getMessage());
        assertEquals(List.of("display: window unavailable (no DISPLAY set); nothing left to try"), notices);
    }

    /**
     * With no X server and EGL unable to find a driver, a child JVM falls back window -> offscreen -> none,
     * one notice each, and still runs its frames; {@code --require-gl} turns that into exit status 3.
     * The EGL failure is provoked through libglvnd's vendor list, so this needs a glvnd system (Debian's).
     */
    @Test
    void fallsAllTheWayToNoneWhenNeitherXNorEglWorks() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/usr/share/glvnd/egl_vendor.d")),
                "no libglvnd EGL vendor directory: cannot hide the EGL driver on this system");
        ChildJvm.Outcome run = ChildJvm.runSmoke(List.of(), List.of("--frames", "3"),
                OUT.resolve("fallback-none.log"), env -> {
                    env.remove("DISPLAY");
                    env.remove("WAYLAND_DISPLAY");
                    env.put("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/weft-no-egl.json");
                });
        String out = run.output();
        assertEquals(0, run.exitCode(), out);
        assertTrue(out.contains("display: window unavailable (no DISPLAY set); falling back to offscreen"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("display: offscreen unavailable (")
                && l.endsWith("; falling back to none")), out);
        assertTrue(out.contains("render-smoke: display none:"), out);
        assertTrue(out.contains("render-smoke: 3 frames (1 loading)"), out);

        ChildJvm.Outcome strict = ChildJvm.runSmoke(List.of(), List.of("--frames", "3", "--require-gl"),
                OUT.resolve("fallback-require-gl.log"), env -> {
                    env.remove("DISPLAY");
                    env.put("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/weft-no-egl.json");
                });
        assertEquals(3, strict.exitCode(), strict.output());
    }
}
