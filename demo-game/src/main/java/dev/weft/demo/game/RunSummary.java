package dev.weft.demo.game;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a run did, printed at exit and written by {@code --summary FILE} as JSON. The first eight JSON
 * keys are the stable contract ({@code frames, p50_ms, p95_ms, p99_ms, max_ms, over_budget,
 * level_load_ms, jobs_run}); the rest are extras that may change.
 *
 * @param frames           gameplay frames run (each with a full job graph); loading frames are apart
 * @param overBudget       gameplay frames longer than 16.67 ms
 * @param levelLoadMs      from starting the load to the level being drawable (uploads included)
 * @param jobsRun          {@code JobSystemStats.jobsRun()} after shutdown: every job run on a worker
 * @param rangesRun        parallelFor ranges the three parallel stages ran
 * @param rangesExpected   ranges they must have run: frames x 3 x ranges per stage
 * @param entityUpdates    entity simulations run; must be frames x entities
 * @param stageMeanMs      mean time per stage, by {@link FrameStage#label()}
 * @param slowestFrames    the longest gameplay frames: frame number (0 = the first after loading) to ms,
 *                         longest first
 * @param extras           warm-up, frames 0-5 and the simulate-to-present latency ({@link FrameExtras}).
 *                         p50/p99/max always cover every gameplay frame: the slow first frames are fixed
 *                         by the warm-up, not left out of the figures
 * @param streaming        what chunk streaming did ({@link StreamingReport#OFF} with {@code --streaming off})
 * @param entityStateHash  {@link EntityStateHash} after the last frame: equal for equal seeds and ticks
 */
public record RunSummary(int frames, int framesRequested, int loadingFrames, double p50Ms, double p95Ms,
                         double p99Ms, double maxMs, double meanMs, int overBudget, double levelLoadMs,
                         long jobsRun, long mainThreadJobsRun, int entities, int workers, boolean pipeline,
                         String display, String clock, String level, long simTicks, double meanVisible,
                         long drawCalls, long rangesRun, long rangesExpected, long entityUpdates,
                         Map<String, Double> stageMeanMs, int loadFailures, String screenshot,
                         Map<Integer, Double> slowestFrames, FrameExtras extras, StreamingReport streaming,
                         long entityStateHash) {

    /** The 60 Hz frame budget in milliseconds. */
    public static final double BUDGET_MS = 1000.0 / 60.0;

    public RunSummary {
        stageMeanMs = Map.copyOf(stageMeanMs);
        slowestFrames = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(slowestFrames));   // keeps the order
    }

    /** The summary as a JSON object (one line). */
    public String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("frames", frames);
        m.put("p50_ms", p50Ms);
        m.put("p95_ms", p95Ms);
        m.put("p99_ms", p99Ms);
        m.put("max_ms", maxMs);
        m.put("over_budget", overBudget);
        m.put("level_load_ms", levelLoadMs);
        m.put("jobs_run", jobsRun);
        m.put("frames_requested", framesRequested);
        m.put("loading_frames", loadingFrames);
        m.put("mean_ms", meanMs);
        m.put("budget_ms", BUDGET_MS);
        m.put("main_thread_jobs_run", mainThreadJobsRun);
        m.put("entities", entities);
        m.put("workers", workers);
        m.put("pipeline", pipeline);
        m.put("display", display);
        m.put("clock", clock);
        m.put("level", level);
        m.put("sim_ticks", simTicks);
        m.put("mean_visible", meanVisible);
        m.put("draw_calls", drawCalls);
        m.put("ranges_run", rangesRun);
        m.put("ranges_expected", rangesExpected);
        m.put("entity_updates", entityUpdates);
        Map<String, Object> stages = new LinkedHashMap<>();
        for (FrameStage s : FrameStage.values()) {
            stages.put(s.label(), stageMeanMs.getOrDefault(s.label(), 0.0));
        }
        m.put("stage_mean_ms", stages);
        m.put("load_failures", loadFailures);
        m.put("screenshot", screenshot);
        Map<String, Object> slow = new LinkedHashMap<>();
        slowestFrames.forEach((f, ms) -> slow.put(Integer.toString(f), ms));
        m.put("slowest_frames_ms", slow);
        extras.putJson(m);
        m.put("entity_state_hash", Long.toHexString(entityStateHash));
        streaming.putJson(m);
        return json(m);
    }

    /** Writes {@link #toJson()} plus a newline, creating parent directories. */
    public void writeJson(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, toJson() + "\n", StandardCharsets.UTF_8);
    }

    /** The human-readable summary. */
    public void print(PrintStream out) {
        out.printf(Locale.ROOT, "weft-demo: %d frames (%d requested, + %d loading) on %s, %d entities, %d workers,"
                        + " pipeline %s, clock %s%n", frames, framesRequested, loadingFrames, display, entities, workers,
                pipeline ? "on" : "off", clock);
        out.printf(Locale.ROOT, "weft-demo: frame time p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms, mean %.2f ms;"
                + " %d over the %.2f ms budget%n", p50Ms, p95Ms, p99Ms, maxMs, meanMs, overBudget, BUDGET_MS);
        StringBuilder st = new StringBuilder();
        for (FrameStage s : FrameStage.values()) {
            st.append(st.isEmpty() ? "" : ", ").append(s.label()).append(' ')
                    .append(String.format(Locale.ROOT, "%.2f", stageMeanMs.getOrDefault(s.label(), 0.0)));
        }
        out.printf(Locale.ROOT, "weft-demo: stage means (ms): %s; %.0f entities visible on average, %d draw calls%n",
                st, meanVisible, drawCalls);
        out.printf(Locale.ROOT, "weft-demo: level '%s' loaded in %.0f ms (%d failures); jobs run %d (+ %d on the main"
                        + " thread); ranges %d of %d expected; entity updates %d%n", level, levelLoadMs, loadFailures,
                jobsRun, mainThreadJobsRun, rangesRun, rangesExpected, entityUpdates);
        if (!slowestFrames.isEmpty()) {
            StringBuilder sl = new StringBuilder();
            slowestFrames.forEach((f, ms) -> sl.append(sl.isEmpty() ? "" : ", ")
                    .append(String.format(Locale.ROOT, "#%d %.1f ms", f, ms)));
            out.printf(Locale.ROOT, "weft-demo: slowest frames (0 = first after loading): %s%n", sl);
        }
        extras.print(out);
        out.println(streaming.line());                   // the last line: the streaming figures
    }

    private static String json(Map<String, Object> m) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, Object> e : m.entrySet()) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(quote(e.getKey())).append(": ");
            Object v = e.getValue();
            if (v == null) {
                sb.append("null");
            } else if (v instanceof Double d) {
                sb.append(Double.isFinite(d) ? String.format(Locale.ROOT, "%.3f", d) : "null");
            } else if (v instanceof Number || v instanceof Boolean) {
                sb.append(v);
            } else if (v instanceof Map<?, ?> inner) {
                @SuppressWarnings("unchecked")
                Map<String, Object> cast = (Map<String, Object>) inner;
                sb.append(json(cast));
            } else {
                sb.append(quote(v.toString()));
            }
        }
        return sb.append('}').toString();
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
