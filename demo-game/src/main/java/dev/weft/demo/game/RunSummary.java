package dev.weft.demo.game;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
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
 * @param drawCalls        draw calls of the gameplay frames (scene, streamed chunks, frame-time graph); the
 *                         loading screen's and the warm-up's are not counted
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

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

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
        writeJsonFile(file, toJson());
    }

    /** Writes {@code json} plus a newline as UTF-8, creating parent directories (also the comparisons' summaries). */
    static void writeJsonFile(Path file, String json) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, json + "\n", StandardCharsets.UTF_8);
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
        out.printf(Locale.ROOT, "weft-demo: stage means (ms): %s; %.0f entities visible on average, %d draw calls"
                + " in gameplay frames%n", st, meanVisible, drawCalls);
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

    /**
     * Jackson writes the summary (escaping included: the trace writer in engine-jobs keeps the one
     * hand-written escaper); doubles are rounded to 3 decimals, non-finite ones written as null.
     */
    private static String json(Map<String, Object> m) {
        try {
            return MAPPER.writeValueAsString(rounded(m));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the run summary as JSON", e);
        }
    }

    private static Object rounded(Object v) {
        if (v instanceof Double d) {
            return Double.isFinite(d) ? BigDecimal.valueOf(d).setScale(3, RoundingMode.HALF_EVEN) : null;
        }
        if (v instanceof Map<?, ?> inner) {
            Map<String, Object> copy = new LinkedHashMap<>();
            inner.forEach((k, x) -> copy.put(String.valueOf(k), rounded(x)));
            return copy;
        }
        return v instanceof Number || v instanceof Boolean || v == null ? v : v.toString();
    }
}
