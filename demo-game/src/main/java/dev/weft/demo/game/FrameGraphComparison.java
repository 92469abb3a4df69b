package dev.weft.demo.game;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * {@code --compare-frame-graph}: the same run four times in one process, parked-waits, job-graph,
 * job-graph, parked-waits (ABBA, so a JIT or heap that warms over the process favours neither style), then
 * frame and stage times side by side. Both styles run the same stage bodies and give the same commands
 * ({@code RenderCommandDeterminismTest}); what differs is how a stage waits for the one before: a root
 * job that parks and resumes, or the last range of one stage queueing the next.
 */
final class FrameGraphComparison {
    private FrameGraphComparison() {}

    /**
     * Runs the four and prints the table; {@code cfg.summary()}, if set, gets {@code {"parked_waits":
     * [run 1, run 4], "job_graph": [run 2, run 3]}}. Returns the exit status.
     *
     * @param frameGraphGiven whether the command line named a {@code --frame-graph}, which the four runs override
     * @throws IllegalArgumentException for options that belong to a single run
     */
    static int run(GameConfig cfg, boolean alsoComparePipeline, boolean frameGraphGiven) {
        if (alsoComparePipeline) {
            throw new IllegalArgumentException("--compare-frame-graph and --compare-pipeline each run several times:"
                    + " pick one (add --pipeline to compare the frame graphs pipelined)");
        }
        if (frameGraphGiven || cfg.jobGraph()) {
            throw new IllegalArgumentException("--compare-frame-graph runs both parked-waits and job-graph:"
                    + " drop --frame-graph");
        }
        if (cfg.trace() != null || cfg.screenshot() != null) {
            throw new IllegalArgumentException("--compare-frame-graph runs four times, so --trace and --screenshot"
                    + " would each describe only one run: run with one --frame-graph for those");
        }
        PrintStream out = cfg.out();
        boolean[] jobGraph = {false, true, true, false};
        RunSummary[] runs;
        try {
            String[] names = new String[jobGraph.length];
            for (int i = 0; i < names.length; i++) {
                names[i] = jobGraph[i] ? "job-graph" : "parked-waits";
            }
            runs = Comparisons.runAll(cfg, "compare-frame-graph", names,
                    i -> cfg.comparisonRun(cfg.pipeline(), jobGraph[i]));
        } catch (GameException e) {
            out.println("weft-demo: " + e.getMessage());
            return e.exitCode();
        }
        print(out, List.of(runs[0], runs[3]), List.of(runs[1], runs[2]));
        return Comparisons.writeSummary(cfg, "{\"parked_waits\": [" + runs[0].toJson() + ", " + runs[3].toJson()
                + "], \"job_graph\": [" + runs[1].toJson() + ", " + runs[2].toJson() + "]}");
    }

    static void print(PrintStream out, List<RunSummary> parked, List<RunSummary> graph) {
        RunSummary first = parked.get(0);
        out.printf(Locale.ROOT, "weft-demo: frame graph A/B, %d frames per run, %d entities, %d workers, pipeline %s,"
                + " warm-up %s, runs in the order parked 1, graph 1, graph 2, parked 2%n", first.frames(),
                first.entities(), first.workers(), first.pipeline() ? "on" : "off",
                first.extras().warmUp().on() ? "on" : "off");
        out.printf(Locale.ROOT, "  %-26s %10s %10s %10s %10s %12s%n", "ms", "parked 1", "parked 2", "graph 1",
                "graph 2", "graph/parked");
        row(out, "frame time p50", parked, graph, RunSummary::p50Ms);
        row(out, "frame time p99", parked, graph, RunSummary::p99Ms);
        row(out, "frame time max", parked, graph, RunSummary::maxMs);
        row(out, "frame time mean", parked, graph, RunSummary::meanMs);
        for (FrameStage s : FrameStage.values()) {
            row(out, "stage " + s.label() + " mean", parked, graph, r -> r.stageMeanMs().getOrDefault(s.label(), 0.0));
        }
        out.printf(Locale.ROOT, "  %-26s %10d %10d %10d %10d%n", "frames over budget", parked.get(0).overBudget(),
                parked.get(1).overBudget(), graph.get(0).overBudget(), graph.get(1).overBudget());
    }

    /** One row: each run, then the ratio of the two styles' means (below 1: the job graph is faster). */
    private static void row(PrintStream out, String name, List<RunSummary> parked, List<RunSummary> graph,
                            ToDoubleFunction<RunSummary> f) {
        double p = (f.applyAsDouble(parked.get(0)) + f.applyAsDouble(parked.get(1))) / 2;
        double g = (f.applyAsDouble(graph.get(0)) + f.applyAsDouble(graph.get(1))) / 2;
        out.printf(Locale.ROOT, "  %-26s %10.2f %10.2f %10.2f %10.2f %12s%n", name, f.applyAsDouble(parked.get(0)),
                f.applyAsDouble(parked.get(1)), f.applyAsDouble(graph.get(0)), f.applyAsDouble(graph.get(1)),
                p > 0 ? String.format(Locale.ROOT, "%.2f", g / p) : "-");
    }
}
