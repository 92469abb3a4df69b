package dev.weft.demo.game;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Loading progress as text, for runs without a window. {@link Mode#TERMINAL} redraws one line with
 * {@code \r} (only when stdout is a terminal, or with {@code --progress}); {@link Mode#PLAIN} prints a
 * line at 0, 25, 50, 75 and 100 % (logs, pipes); {@link Mode#QUIET} prints nothing (the window shows
 * the bar). Main thread only.
 */
final class LoadProgressPrinter {
    enum Mode { TERMINAL, PLAIN, QUIET }

    private static final int BAR_WIDTH = 30;
    private static final long REDRAW_NANOS = 50_000_000L;

    private final PrintStream out;
    private final Mode mode;
    private final String level;
    private int nextQuarter;           // PLAIN: the next 25 % step to report
    private long lastDrawNanos;        // TERMINAL: throttles redraws
    private String lastLine = "";
    private boolean lineOpen;          // TERMINAL: a \r line is on screen without its newline

    LoadProgressPrinter(PrintStream out, Mode mode, String level) {
        this.out = out;
        this.mode = mode;
        this.level = level;
    }

    /** Terminal bar if stdout is a terminal (or forced), else plain lines; quiet when a window shows it. */
    static Mode choose(boolean windowShowsBar, boolean forced, PrintStream out) {
        if (forced) {
            return Mode.TERMINAL;
        }
        if (windowShowsBar) {
            return Mode.QUIET;
        }
        java.io.Console console = System.console();
        boolean terminal = out == System.out && console != null && console.isTerminal();
        return terminal ? Mode.TERMINAL : Mode.PLAIN;
    }

    void update(LevelLoading.Progress p, boolean uploading) {
        switch (mode) {
            case QUIET -> { }
            case PLAIN -> {
                int percent = (int) Math.floor(p.fraction() * 100);
                if (p.assetsTotal() > 0 && percent >= nextQuarter * 25 && nextQuarter <= 4) {
                    while (nextQuarter <= 4 && percent >= nextQuarter * 25) {
                        nextQuarter++;
                    }
                    printPlain(p);
                }
            }
            case TERMINAL -> {
                long now = System.nanoTime();
                if (now - lastDrawNanos < REDRAW_NANOS && !uploading) {
                    return;
                }
                lastDrawNanos = now;
                String line = describe(p, true) + (uploading ? "  uploading" : "");
                if (!line.equals(lastLine)) {
                    out.print("\r" + line + " ".repeat(Math.max(0, lastLine.length() - line.length())));
                    out.flush();
                    lastLine = line;
                    lineOpen = true;
                }
            }
        }
    }

    /** Ends the bar (final state and newline). */
    void finish(LevelLoading.Progress p) {
        if (mode == Mode.TERMINAL) {
            String line = describe(p, true);
            out.print("\r" + line + " ".repeat(Math.max(0, lastLine.length() - line.length())));
            out.println();
            lineOpen = false;
        } else if (mode == Mode.PLAIN) {
            nextQuarter = 5;
            printPlain(p);
        }
    }

    private void printPlain(LevelLoading.Progress p) {
        String line = "weft-demo: " + describe(p, false);
        if (!line.equals(lastLine)) {
            out.println(line);
            lastLine = line;
        }
    }

    /** Closes an open bar line before something else is printed. */
    void interrupt() {
        if (lineOpen) {
            out.println();
            lineOpen = false;
        }
    }

    /** {@code 1.7 MB} or {@code 22.3 kB}. */
    static String formatBytes(long bytes) {
        return bytes >= 1_000_000 ? String.format(Locale.ROOT, "%.1f MB", bytes / 1e6)
                : String.format(Locale.ROOT, "%.1f kB", bytes / 1e3);
    }

    private String describe(LevelLoading.Progress p, boolean bar) {
        double f = p.fraction();
        boolean mb = p.bytesTotal() >= 1_000_000;
        double unit = mb ? 1e6 : 1e3;
        String counts = String.format(Locale.ROOT, "%3d%%  %d/%d assets  %.1f/%.1f %s", (int) Math.floor(f * 100),
                p.assetsDone(), p.assetsTotal(), p.bytesDone() / unit, p.bytesTotal() / unit, mb ? "MB" : "kB");
        if (!bar) {
            return "loading '" + level + "' " + counts;
        }
        int filled = (int) Math.round(f * BAR_WIDTH);
        return "loading " + level + " [" + "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled) + "] " + counts;
    }
}
