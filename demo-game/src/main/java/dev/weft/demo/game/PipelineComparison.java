package dev.weft.demo.game;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * {@code --compare-pipeline}: the same run twice in one process, first without and then with
 * {@code --pipeline}, then frame time and simulate-to-present latency side by side. The second run
 * finds the JIT warmer than the first; with {@code --warm-up on} (the default) both start compiled, so
 * what is left between them is the pipelining.
 */
final class PipelineComparison {
    private PipelineComparison() {}

    /**
     * Runs both and prints the table; {@code cfg.summary()}, if set, gets {@code {"plain": {...},
     * "pipelined": {...}}}. Returns the exit status.
     *
     * @throws IllegalArgumentException for options that belong to a single run
     */
    static int run(GameConfig cfg) {
        if (cfg.pipeline()) {
            throw new IllegalArgumentException("--compare-pipeline runs both with and without --pipeline: drop --pipeline");
        }
        if (cfg.trace() != null || cfg.screenshot() != null) {
            throw new IllegalArgumentException("--compare-pipeline runs twice, so --trace and --screenshot would each"
                    + " describe only one run: run with --pipeline or without it for those");
        }
        PrintStream out = cfg.out();
        RunSummary[] runs;
        try {
            runs = Comparisons.runAll(cfg, "compare-pipeline", new String[] {"plain", "--pipeline"},
                    i -> cfg.comparisonRun(i == 1));
        } catch (GameException e) {
            out.println("weft-demo: " + e.getMessage());
            return e.exitCode();
        }
        print(out, runs[0], runs[1]);
        return Comparisons.writeSummary(cfg, "{\"plain\": " + runs[0].toJson() + ", \"pipelined\": " + runs[1].toJson() + "}");
    }

    static void print(PrintStream out, RunSummary plain, RunSummary pipelined) {
        out.printf(Locale.ROOT, "weft-demo: pipeline A/B, %d frames each, %d entities, %d workers, warm-up %s%n",
                plain.frames(), plain.entities(), plain.workers(), plain.extras().warmUp().on() ? "on" : "off");
        out.printf(Locale.ROOT, "  %-32s %10s %10s%n", "ms", "plain", "pipelined");
        row(out, "frame time p50", plain, pipelined, RunSummary::p50Ms);
        row(out, "frame time p99", plain, pipelined, RunSummary::p99Ms);
        row(out, "frame time max", plain, pipelined, RunSummary::maxMs);
        row(out, "frame time mean", plain, pipelined, RunSummary::meanMs);
        row(out, "simulate-to-present p50", plain, pipelined, r -> r.extras().simulateToPresentP50Ms());
        row(out, "simulate-to-present p99", plain, pipelined, r -> r.extras().simulateToPresentP99Ms());
        out.printf(Locale.ROOT, "  %-32s %10d %10d%n", "frames over budget", plain.overBudget(), pipelined.overBudget());
    }

    private static void row(PrintStream out, String name, RunSummary a, RunSummary b, ToDoubleFunction<RunSummary> f) {
        out.printf(Locale.ROOT, "  %-32s %10.2f %10.2f%n", name, f.applyAsDouble(a), f.applyAsDouble(b));
    }
}
