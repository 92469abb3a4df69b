package dev.weft.assets;

import java.io.IOException;
import java.util.concurrent.CancellationException;

/**
 * Something that could not be loaded and was replaced by a placeholder (or, for the level file itself,
 * made the level fail). {@link #message()} always starts with the file, and for text formats the line,
 * in the {@code file:line: detail} form of {@link AssetFormatException}.
 *
 * @param asset   the level asset name, or the asset id for requests made outside a level, or the level name
 * @param file    the file (as its source names it), or null if no file is involved
 * @param line    1-based line for text formats, else 0
 * @param message what went wrong and what was done about it
 * @param cause   the exception, or null
 */
public record LoadFailure(String asset, String file, int line, String message, Throwable cause) {

    /** A failure of {@code asset} read from {@code file}, described from {@code t}. */
    static LoadFailure of(String asset, String file, Throwable t, String consequence) {
        String detail;
        int line = 0;
        if (t instanceof AssetFormatException f) {
            detail = f.getMessage();                       // already "file:line: detail"
            line = f.line();
        } else if (t instanceof IOException) {
            detail = file + ": cannot read: " + describe(t);
        } else if (t instanceof CancellationException) {
            detail = (file != null ? file + ": " : "") + "cancelled";
        } else {
            detail = (file != null ? file + ": " : "") + describe(t);
        }
        return new LoadFailure(asset, file, line, consequence == null ? detail : detail + "; " + consequence, t);
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        String type = t.getClass().getSimpleName();
        return m == null ? type : type + ": " + m;
    }

    @Override
    public String toString() {
        return asset + ": " + message;
    }
}
