package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.demo.DemoMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runs the whole demo in-process, headless, on the small level and checks the exit summary: every frame
 * ran its full job graph, the level loaded, no job or range was lost, and the JSON has its keys. Nothing
 * here depends on how fast the machine is: frame times are only checked for being consistent.
 */
class HeadlessDemoTest {
    static final int FRAMES = 300;
    static final int ENTITIES = 2000;
    static final Set<String> REQUIRED_KEYS = Set.of("frames", "p50_ms", "p95_ms", "p99_ms", "max_ms", "over_budget",
            "level_load_ms", "jobs_run");

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "workers={0} pipeline={1}")
    @CsvSource({"1, false", "2, true", "3, false"})
    void headlessRunReportsEveryFrameAndEveryJob(int workers, boolean pipeline) throws Exception {
        Path summary = tmp.resolve("summary.json");
        List<String> args = new ArrayList<>(List.of("--headless", "--frames", "" + FRAMES, "--entities", "" + ENTITIES,
                "--level", "tiny", "--workers", "" + workers, "--asset-latency-ms", "5", "--summary", summary.toString()));
        if (pipeline) {
            args.add("--pipeline");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = DemoCommand.execute(args.toArray(String[]::new), DemoMain::pipelineLoading,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String log = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, log);
        assertTrue(Files.exists(summary), log);

        Map<String, Object> json = Summaries.read(summary);
        assertTrue(json.keySet().containsAll(REQUIRED_KEYS), "missing keys in " + json.keySet());
        assertTrue(json.keySet().containsAll(StreamingDemoTest.STREAMING_KEYS), "missing streaming keys in " + json.keySet());
        assertEquals(0, num(json, "chunk_gpu_objects_leaked"), "streaming is on by default; nothing leaks: " + json);
        assertEquals(FRAMES, num(json, "frames"), log);
        assertEquals(FRAMES, num(json, "sim_ticks"), "lockstep: one tick per frame");
        assertTrue(num(json, "level_load_ms") > 0, log);
        assertEquals(0, num(json, "load_failures"), log);
        assertTrue(num(json, "loading_frames") >= 1, log);

        // No job lost: every frame ran its root job, >= 1 job per stage, every range exactly once.
        assertTrue(num(json, "jobs_run") >= (double) FRAMES * FrameGraph.MIN_JOBS_PER_FRAME, log);
        long perStage = FrameGraph.rangesPerStage(ENTITIES, 256);
        assertEquals((double) FRAMES * 3 * perStage, num(json, "ranges_expected"), log);
        assertEquals(num(json, "ranges_expected"), num(json, "ranges_run"), log);
        assertEquals((double) FRAMES * ENTITIES, num(json, "entity_updates"), log);

        // Percentiles are ordered and in range of each other; the over-budget count is a count of frames.
        double p50 = num(json, "p50_ms"), p95 = num(json, "p95_ms"), p99 = num(json, "p99_ms"), max = num(json, "max_ms");
        assertTrue(0 < p50 && p50 <= p95 && p95 <= p99 && p99 <= max * 1.001, json.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> slowest = (Map<String, Object>) json.get("slowest_frames_ms");
        List<Double> slowestMs = slowest.values().stream().map(v -> ((Number) v).doubleValue()).toList();
        assertOverBudgetConsistent((int) num(json, "over_budget"), FRAMES, slowestMs, json.toString());
        assertEquals(Math.min(5, FRAMES), slowest.size(), json.toString());
        double longest = ((Number) slowest.values().iterator().next()).doubleValue();
        assertEquals(max, longest, max * 0.01 + 0.01, "the longest frame is the histogram's max: " + json);
        assertTrue(log.contains("weft-demo: slowest frames (0 = first after loading): #"), log);
        // Warm-up ran behind the loading screen, and no frame was left out of the figures for it.
        assertEquals(Boolean.TRUE, json.get("warm_up"), json.toString());
        assertTrue(num(json, "warm_up_frames") >= WarmUp.MIN_FRAMES && num(json, "warm_up_ms") > 0, json.toString());
        assertFalse(json.containsKey("p99_after_warm_up_ms"), "no percentile that leaves frames out: " + json);
        assertTrue(num(json, "jit_ms_during_gameplay") >= 0, "HotSpot reports JIT time: " + json);
        assertTrue(log.contains(" ms; JIT compiling during gameplay "), log);
        @SuppressWarnings("unchecked")
        Map<String, Object> first = (Map<String, Object>) json.get("first_frames_ms");
        assertEquals(List.of("0", "1", "2", "3", "4", "5"), List.copyOf(first.keySet()), json.toString());
        first.values().forEach(ms -> assertTrue(((Number) ms).doubleValue() <= max * 1.001, "frames 0-5 are in max: " + json));
        double lat50 = num(json, "simulate_to_present_p50_ms"), lat99 = num(json, "simulate_to_present_p99_ms");
        assertTrue(0 < lat50 && lat50 <= lat99 && lat99 <= num(json, "simulate_to_present_max_ms") * 1.001, json.toString());
        assertTrue(log.contains("weft-demo: warm-up on: "), log);
        assertEquals("none", json.get("display"));
        assertEquals(pipeline, json.get("pipeline"));   // the flag reached the game; its effect is scheduling order only
        assertTrue(num(json, "draw_calls") > 0, "the headless renderer counts the draws it was given");

        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("weft-demo: frame time p50"), text);
        assertTrue(text.contains("level 'tiny' loaded in"), text);
    }

    /** Frames whose simulate stage is made to spin this long: over the 16.67 ms budget whatever the machine. */
    static final long SLOW_FRAME_NANOS = 25_000_000L;
    static final Set<Long> SLOW_FRAMES = Set.of(5L, 15L, 25L);

    /**
     * over_budget counts the frames that took longer than the budget: three frames are made to take at
     * least 25 ms (a spin in their first simulate range; a lower bound, so no clock can make them fast),
     * so the count is at least three, and it agrees with the slowest frames and max of the same run.
     */
    @org.junit.jupiter.api.Test
    void overBudgetCountsTheFramesLongerThanTheBudget() throws GameException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GameConfig cfg = GameConfig.builder().loading(DemoMain::pipelineLoading)
                .headless(true).frames(40).entities(500).workers(2).level("tiny")
                .assetLatency(java.time.Duration.ZERO).out(new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .stageHook((stage, frame, start, end) -> {
                    if (stage == FrameStage.SIMULATE && start == 0 && SLOW_FRAMES.contains(frame)) {
                        long until = System.nanoTime() + SLOW_FRAME_NANOS;
                        while (System.nanoTime() - until < 0) {
                            Thread.onSpinWait();
                        }
                    }
                })
                .build();
        RunSummary summary = Game.run(cfg);
        String context = summary.toJson();
        assertTrue(summary.overBudget() >= SLOW_FRAMES.size(), "the three 25 ms frames are over budget: " + context);
        assertTrue(summary.maxMs() >= SLOW_FRAME_NANOS / 1e6, context);
        assertOverBudgetConsistent(summary.overBudget(), summary.frames(), List.copyOf(summary.slowestFrames().values()),
                context);
    }

    /**
     * The over-budget count against the slowest frames of the same run (exact frame times, unlike the
     * histogram's max, which HdrHistogram rounds up by up to 0.1%): at least as many as the slowest
     * frames listed above the budget, and, when not all of those are above it, exactly those (every frame
     * over budget is then among them; so zero if the longest frame was within budget). The JSON has 3
     * decimals, so a frame within 0.001 ms of the budget counts either way.
     */
    static void assertOverBudgetConsistent(int overBudget, int frames, List<Double> slowestMs, String context) {
        double eps = 0.0011, budget = RunSummary.BUDGET_MS;
        assertTrue(overBudget >= 0 && overBudget <= frames, "over_budget is a count of frames: " + context);
        long surelyOver = slowestMs.stream().filter(ms -> ms > budget + eps).count();
        long maybeOver = slowestMs.stream().filter(ms -> ms >= budget - eps).count();
        assertTrue(overBudget >= surelyOver, surelyOver + " of the slowest frames were over budget: " + context);
        if (maybeOver < slowestMs.size()) {
            assertTrue(overBudget <= maybeOver, "every frame over budget is among the slowest listed: " + context);
        }
    }

    static double num(Map<String, Object> json, String key) {
        Object v = json.get(key);
        assertNotNull(v, "no key " + key + " in " + json);
        return ((Number) v).doubleValue();
    }
}
