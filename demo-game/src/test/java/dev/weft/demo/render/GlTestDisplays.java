package dev.weft.demo.render;

import dev.weft.demo.window.Display;
import dev.weft.demo.window.DisplayConfig;
import dev.weft.demo.window.DisplayKind;
import dev.weft.demo.window.DisplayUnavailableException;
import dev.weft.demo.window.Displays;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** Opens a GL display for tests: offscreen EGL first, else a window if there is an X server, else skip. */
final class GlTestDisplays {
    private GlTestDisplays() {}

    static Display openOrSkip(int width, int height) {
        DisplayConfig config = new DisplayConfig(width, height, "weft render test", DisplayKind.OFFSCREEN, false);
        try {
            return Displays.openFirst(config, List.of(DisplayKind.OFFSCREEN, DisplayKind.WINDOW), System.out::println);
        } catch (DisplayUnavailableException e) {
            Assumptions.abort("GL tests skipped: neither an EGL offscreen context (Debian: libegl1 libegl-mesa0"
                    + " libgl1-mesa-dri) nor an X display works here: " + e.getMessage());
            throw e; // not reached
        }
    }
}
