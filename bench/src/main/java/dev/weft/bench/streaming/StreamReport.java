package dev.weft.bench.streaming;

import static dev.weft.bench.profiler.ProfileReport.esc;
import static dev.weft.bench.profiler.ProfileReport.ms;

import dev.weft.bench.Json;
import dev.weft.bench.profiler.ProfileReport;
import dev.weft.bench.profiler.SvgCharts;
import dev.weft.bench.profiler.SystemProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The streaming benchmark's output: a Markdown table (also printed), JSON with every frame time, CSV
 * with one row per run, and an HTML page with one frame-time chart per variant (no stream against
 * stream, drawn by the frame profiler's {@link SvgCharts}). Pure formatting of the {@link RunResult}s.
 *
 * <p>Target, per variant: the stream adds no frame over budget and moves p99 by at most
 * {@value #TARGET_P99_DELTA_MS} ms.
 */
final class StreamReport {
    static final String MARKDOWN = "stream-bench.md";
    static final String JSON = "stream-bench.json";
    static final String CSV = "stream-bench.csv";
    static final String HTML = "stream-bench.html";
    static final double TARGET_P99_DELTA_MS = 1.0;

    /** How the runs were made, for the header. */
    record Config(FrameLoop.Settings settings, int rounds, Calibration calibration, String java, int cpus,
                  String vthreadParallelism) {
        double budgetMs() {
            return settings.tickNanos() / 1e6;
        }

        String describe() {
            FrameLoop.Settings s = settings;
            return String.format(Locale.ROOT,
                    "%d measured frames per run in %d rounds (each round: every variant, every other round in reverse, "
                            + "%d warm-up frames first), %.2f Hz, budget %.2f ms; %d entities x %d "
                            + "substeps (%.1f ns each: ~%.2f ms CPU per frame), grain %d; %d workers (weft, forkjoin), "
                            + "vthreads on the default scheduler (parallelism %s). Stream: %d assets over the measured "
                            + "frames, each a %d ms blocking read then %.0f-%.0f ms of decode (%d units/ms), checkpoint "
                            + "every %.2f ms. JDK %s, %d CPUs.",
                    s.frames() * rounds, rounds, s.warmupFrames(), 1e9 / s.tickNanos(), budgetMs(), s.entities(), calibration.substeps(),
                    calibration.nsPerEntitySubstep(),
                    s.entities() * calibration.substeps() * calibration.nsPerEntitySubstep() / 1e6, s.grain(), s.workers(),
                    vthreadParallelism, s.assets() * rounds, s.readMs(), s.decodeMinMs(), s.decodeMaxMs(), calibration.unitsPerMs(),
                    s.checkpointEveryMs(), java, cpus);
        }
    }

    /** A variant's two runs. */
    record Pair(RunResult without, RunResult with) {
        Variant variant() {
            return with.variant();
        }

        int overDelta(long budgetNanos) {
            return with.measured().framesOver(budgetNanos) - without.measured().framesOver(budgetNanos);
        }

        double p99DeltaMs() {
            return with.measured().percentileMs(99) - without.measured().percentileMs(99);
        }

        boolean meetsTarget(long budgetNanos) {
            return overDelta(budgetNanos) <= 0 && p99DeltaMs() <= TARGET_P99_DELTA_MS;
        }
    }

    private final Config config;
    private final List<Pair> pairs;

    StreamReport(Config config, List<Pair> pairs) {
        this.config = config;
        this.pairs = List.copyOf(pairs);
    }

    List<Pair> pairs() {
        return pairs;
    }

    private long budgetNanos() {
        return config.settings().tickNanos();
    }

    /** Every run did the same entity work (equal checksums). */
    boolean checksumsAgree() {
        return pairs.stream().flatMap(p -> java.util.stream.Stream.of(p.without(), p.with()))
                .map(RunResult::entityChecksum).distinct().count() <= 1;
    }

    void writeTo(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKDOWN), markdown());
        Files.writeString(dir.resolve(JSON), json());
        Files.writeString(dir.resolve(CSV), csv());
        Files.writeString(dir.resolve(HTML), html());
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# Frame loop while streaming\n\n").append(config.describe()).append("\n\n");
        md.append("| variant | mechanisms | run | load | frames | over budget | p50 ms | p99 ms | max ms | assets finished | "
                + "Δ over budget | Δ p99 ms | target |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Pair p : pairs) {
            for (RunResult r : List.of(p.without(), p.with())) {
                SystemProfile m = r.measured();
                md.append("| ").append(r.variant().name()).append(" | ").append(r.variant().mechanisms())
                        .append(" | ").append(r.runName()).append(" | ").append(String.format(Locale.ROOT, "%.1f", r.loadAverage()))
                        .append(" | ").append(m.frames())
                        .append(" | ").append(m.framesOver(budgetNanos())).append(" | ").append(ms(m.percentileMs(50)))
                        .append(" | ").append(ms(m.percentileMs(99))).append(" | ").append(ms(m.maxMs()))
                        .append(" | ").append(r.assetsFinished()).append('/').append(r.assetsSubmitted());
                if (r.streamed()) {
                    md.append(String.format(Locale.ROOT, " | %+d | %+.3f | %s |", p.overDelta(budgetNanos()),
                            p.p99DeltaMs(), p.meetsTarget(budgetNanos()) ? "met" : "MISSED"));
                } else {
                    md.append(" |  |  |  |");
                }
                md.append('\n');
            }
        }
        md.append("\nTarget: the stream adds 0 frames over budget and p99 stays within ")
                .append(TARGET_P99_DELTA_MS).append(" ms of the run without it.\n\n");
        md.append("Warm-up frames (no stream, not in the table above):\n\n| variant | run | frames | over budget | p99 ms | max ms |\n")
                .append("|---|---|---:|---:|---:|---:|\n");
        for (Pair p : pairs) {
            for (RunResult r : List.of(p.without(), p.with())) {
                SystemProfile w = r.warmup();
                md.append("| ").append(r.variant().name()).append(" | ").append(r.runName()).append(" | ").append(w.frames())
                        .append(" | ").append(w.framesOver(budgetNanos())).append(" | ")
                        .append(w.frames() == 0 ? "-" : ms(w.percentileMs(99))).append(" | ")
                        .append(w.frames() == 0 ? "-" : ms(w.maxMs())).append(" |\n");
            }
        }
        md.append('\n');
        for (Pair p : pairs) {
            if (p.with().failure() != null) {
                md.append("FAILURE in ").append(p.variant().name()).append(": ").append(p.with().failure()).append('\n');
            }
        }
        md.append(checksumsAgree() ? "Every run computed the same entity state (equal checksums).\n"
                : "WARNING: the runs' entity checksums differ, so they did not do the same frame work.\n");
        return md.toString();
    }

    String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        FrameLoop.Settings s = config.settings();
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("frames", s.frames() * config.rounds());
        cfg.put("rounds", config.rounds());
        cfg.put("warmupFrames", s.warmupFrames());
        cfg.put("entities", s.entities());
        cfg.put("substeps", config.calibration().substeps());
        cfg.put("grain", s.grain());
        cfg.put("workers", s.workers());
        cfg.put("assets", s.assets() * config.rounds());
        cfg.put("readMs", s.readMs());
        cfg.put("decodeMinMs", s.decodeMinMs());
        cfg.put("decodeMaxMs", s.decodeMaxMs());
        cfg.put("checkpointEveryMs", s.checkpointEveryMs());
        cfg.put("decodeUnitsPerMs", config.calibration().unitsPerMs());
        cfg.put("java", config.java());
        cfg.put("cpus", config.cpus());
        cfg.put("vthreadParallelism", config.vthreadParallelism());
        root.put("config", cfg);
        root.put("budgetMs", config.budgetMs());
        root.put("targetP99DeltaMs", TARGET_P99_DELTA_MS);
        root.put("checksumsAgree", checksumsAgree());
        List<Object> variants = new ArrayList<>();
        for (Pair p : pairs) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("variant", p.variant().name());
            v.put("system", p.variant().system());
            v.put("mechanisms", p.variant().mechanisms());
            v.put("noStream", run(p.without()));
            v.put("stream", run(p.with()));
            v.put("overBudgetDelta", p.overDelta(budgetNanos()));
            v.put("p99DeltaMs", p.p99DeltaMs());
            v.put("meetsTarget", p.meetsTarget(budgetNanos()));
            variants.add(v);
        }
        root.put("variants", variants);
        return Json.write(root);
    }

    private Map<String, Object> run(RunResult r) {
        SystemProfile m = r.measured();
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("loadAverage", r.loadAverage());
        o.put("frames", m.frames());
        o.put("framesOverBudget", m.framesOver(budgetNanos()));
        o.put("p50Ms", m.percentileMs(50));
        o.put("p99Ms", m.percentileMs(99));
        o.put("maxMs", m.maxMs());
        o.put("assetsSubmitted", r.assetsSubmitted());
        o.put("assetsFinishedInWindow", r.finishedInWindow());
        o.put("assetsFinished", r.assetsFinished());
        o.put("failure", r.failure());
        o.put("warmupFrames", r.warmup().frames());
        o.put("warmupFramesOverBudget", r.warmup().framesOver(budgetNanos()));
        o.put("entityChecksum", Long.toHexString(r.entityChecksum()));
        o.put("frameTimesNs", m.frameTimesNs());
        o.put("warmupFrameTimesNs", r.warmup().frameTimesNs());
        return o;
    }

    String csv() {
        StringBuilder c = new StringBuilder("variant,run,loadAverage,frames,framesOverBudget,p50Ms,p99Ms,maxMs,assetsSubmitted,"
                + "assetsFinishedInWindow,assetsFinished,overBudgetDelta,p99DeltaMs,meetsTarget\n");
        for (Pair p : pairs) {
            for (RunResult r : List.of(p.without(), p.with())) {
                SystemProfile m = r.measured();
                c.append(r.variant().name()).append(',').append(r.runName()).append(',')
                        .append(String.format(Locale.ROOT, "%.2f", r.loadAverage())).append(',').append(m.frames()).append(',')
                        .append(m.framesOver(budgetNanos())).append(',').append(ms(m.percentileMs(50))).append(',')
                        .append(ms(m.percentileMs(99))).append(',').append(ms(m.maxMs())).append(',')
                        .append(r.assetsSubmitted()).append(',').append(r.finishedInWindow()).append(',')
                        .append(r.assetsFinished()).append(',');
                if (r.streamed()) {
                    c.append(p.overDelta(budgetNanos())).append(',').append(ms(p.p99DeltaMs())).append(',')
                            .append(p.meetsTarget(budgetNanos()));
                } else {
                    c.append(",,");
                }
                c.append('\n');
            }
        }
        return c.toString();
    }

    String html() {
        StringBuilder h = new StringBuilder(ProfileReport.htmlHead("Weft frame loop while streaming"));
        h.append("<p>").append(esc(config.describe())).append("</p>\n<pre>").append(esc(markdown())).append("</pre>\n");
        for (Pair p : pairs) {
            SystemProfile without = rename(p.without().measured(), "no stream");
            SystemProfile with = rename(p.with().measured(), "stream");
            double maxMs = Math.max(without.maxMs(), with.maxMs());
            h.append("<h2>").append(esc(p.variant().name())).append("</h2>\n<p class=\"note\">")
                    .append(esc(p.variant().mechanisms())).append("</p>\n")
                    .append(SvgCharts.frameTimes(List.of(without, with), StreamReport::color, config.budgetMs(),
                            Math.max(config.budgetMs() * 1.1, maxMs * 1.05), true));
        }
        return h.append("</body>\n</html>\n").toString();
    }

    private static SystemProfile rename(SystemProfile p, String name) {
        return new SystemProfile(name, p.frameTimesNs(), p.histogram(), p.checksum());
    }

    private static String color(String run) {
        return run.equals("stream") ? "#ff7f0e" : "#1f77b4";
    }
}
