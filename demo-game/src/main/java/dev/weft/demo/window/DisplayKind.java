package dev.weft.demo.window;

import java.util.List;
import java.util.Locale;

/** The three display backends, from most to least capable. */
public enum DisplayKind {
    /** GLFW window on X11 with an OpenGL 3.3 core context; needs {@code DISPLAY}. */
    WINDOW,
    /** GLFW null platform with a Mesa EGL context: GL rendering without any X server. */
    OFFSCREEN,
    /** No GL at all: rendering is skipped, the game loop still runs. */
    NONE;

    /** True when a display of this kind has a current OpenGL context. */
    public boolean hasGl() {
        return this != NONE;
    }

    /** This kind and every less capable one, in the order {@link Displays#open} tries them. */
    public List<DisplayKind> fallbackChain() {
        List<DisplayKind> all = List.of(values());
        return all.subList(ordinal(), all.size());
    }

    /**
     * Parses a command-line value: {@code window}, {@code offscreen}, {@code none}, or {@code auto}
     * (the same as {@code window}: best available, falling back).
     */
    public static DisplayKind parse(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "auto", "window" -> WINDOW;
            case "offscreen", "headless-gl", "egl" -> OFFSCREEN;
            case "none", "headless" -> NONE;
            default -> throw new IllegalArgumentException(
                    "unknown display '" + value + "' (expected auto, window, offscreen or none)");
        };
    }
}
