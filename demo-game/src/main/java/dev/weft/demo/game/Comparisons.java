package dev.weft.demo.game;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * What the in-process A/B runs ({@link FrameGraphComparison}, {@link PipelineComparison}) share: running
 * the variants in order with a progress line each, and writing the combined summary.
 */
final class Comparisons {
    private Comparisons() {}

    /**
     * Runs {@code names.length} games, the i-th with {@code configOf.apply(i)}, printing
     * "weft-demo: {@code option}: run i of n, name" before each.
     *
     * @throws GameException from the first run that fails; the later ones do not run
     */
    static RunSummary[] runAll(GameConfig cfg, String option, String[] names, IntFunction<GameConfig> configOf)
            throws GameException {
        RunSummary[] runs = new RunSummary[names.length];
        for (int i = 0; i < runs.length; i++) {
            cfg.out().printf(Locale.ROOT, "weft-demo: %s: run %d of %d, %s%n", option, i + 1, runs.length, names[i]);
            runs[i] = Game.run(configOf.apply(i));
        }
        return runs;
    }

    /** Writes {@code json} to {@code cfg.summary()}, if set; returns the exit status. */
    static int writeSummary(GameConfig cfg, String json) {
        Path file = cfg.summary();
        if (file == null) {
            return Game.EXIT_OK;
        }
        PrintStream out = cfg.out();
        try {
            RunSummary.writeJsonFile(file, json);
            out.println("weft-demo: comparison summary written to " + file);
            return Game.EXIT_OK;
        } catch (IOException e) {
            out.println("weft-demo: cannot write --summary " + file + ": " + e);
            return Game.EXIT_FAILED;
        }
    }
}
