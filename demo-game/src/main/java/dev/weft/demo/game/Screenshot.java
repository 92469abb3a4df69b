package dev.weft.demo.game;

import dev.weft.demo.render.RgbaImage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/** {@code --screenshot}: the last gameplay frame as PNG. */
final class Screenshot {
    private Screenshot() {}

    /** Writes {@code shot} to {@code file}; returns the path for the summary, or null if there is nothing to write. */
    static String write(Path file, Optional<RgbaImage> shot, PrintStream out) throws GameException {
        if (file == null || shot.isEmpty()) {
            return null;
        }
        RgbaImage img = shot.get();
        try {
            img.writePng(file);
        } catch (IOException e) {
            throw new GameException(Game.EXIT_FAILED, "cannot write --screenshot " + file + ": " + e, e);
        }
        out.println("weft-demo: screenshot " + file + " " + img.width() + "x" + img.height() + ", "
                + img.distinctColours() + " colours");
        return file.toString();
    }
}
