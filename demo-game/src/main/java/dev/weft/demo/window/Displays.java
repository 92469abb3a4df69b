package dev.weft.demo.window;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Opens a {@link Display}, falling back from the preferred backend to less capable ones.
 *
 * <p>Detection, in order: {@link DisplayKind#WINDOW} needs {@code DISPLAY} to be set and GLFW's X11
 * platform to initialise and create a GL 3.3 core window; {@link DisplayKind#OFFSCREEN} needs GLFW's null
 * platform to create an EGL context (Mesa's {@code libegl-mesa0}); {@link DisplayKind#NONE} always works.
 * Every skipped backend is reported as one line to the {@code notices} consumer, with GLFW's own reason.
 */
public final class Displays {
    private Displays() {}

    /**
     * Opens the preferred backend or the first less capable one that works. Never fails: the chain ends
     * in {@link DisplayKind#NONE}. Call on the thread that will own the GL context (the main thread).
     */
    public static Display open(DisplayConfig config, Consumer<String> notices) {
        return openFirst(config, config.preferred().fallbackChain(), notices);
    }

    /**
     * Opens the first backend of {@code order} that works, reporting each one skipped.
     *
     * @throws DisplayUnavailableException when none of them could be opened (only possible when
     *                                     {@code order} does not contain {@link DisplayKind#NONE})
     */
    public static Display openFirst(DisplayConfig config, List<DisplayKind> order, Consumer<String> notices) {
        if (order.isEmpty()) {
            throw new IllegalArgumentException("no display kinds to try");
        }
        List<String> reasons = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            DisplayKind kind = order.get(i);
            try {
                return openExactly(kind, config);
            } catch (DisplayUnavailableException e) {
                String next = i + 1 < order.size() ? "falling back to " + name(order.get(i + 1)) : "nothing left to try";
                notices.accept("display: " + name(kind) + " unavailable (" + e.getMessage() + "); " + next);
                reasons.add(name(kind) + ": " + e.getMessage());
            }
        }
        throw new DisplayUnavailableException(String.join("; ", reasons));
    }

    /** Opens exactly this backend, or throws {@link DisplayUnavailableException} saying why not. */
    public static Display openExactly(DisplayKind kind, DisplayConfig config) {
        return switch (kind) {
            case WINDOW, OFFSCREEN -> GlfwDisplay.open(kind, config);
            case NONE -> new HeadlessDisplay(config);
        };
    }

    private static String name(DisplayKind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
