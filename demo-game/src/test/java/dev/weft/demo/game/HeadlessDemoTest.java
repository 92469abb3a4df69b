package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

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
        int status = DemoCommand.execute(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String log = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, log);
        assertTrue(Files.exists(summary), log);

        Map<String, Object> json = SummaryJson.read(summary);
        assertTrue(json.keySet().containsAll(REQUIRED_KEYS), "missing keys in " + json.keySet());
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
        assertTrue(num(json, "over_budget") >= 0 && num(json, "over_budget") <= FRAMES, json.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> slowest = (Map<String, Object>) json.get("slowest_frames_ms");
        assertEquals(Math.min(5, FRAMES), slowest.size(), json.toString());
        double longest = ((Number) slowest.values().iterator().next()).doubleValue();
        assertEquals(max, longest, max * 0.01 + 0.01, "the longest frame is the histogram's max: " + json);
        assertTrue(log.contains("weft-demo: slowest frames (0 = first after loading): #"), log);
        double warmP99 = num(json, "p99_after_warm_up_ms");
        assertTrue(FRAMES > RunSummary.WARM_UP_FRAMES ? warmP99 > 0 && warmP99 <= max * 1.001 : warmP99 == 0, json.toString());
        assertEquals("none", json.get("display"));
        assertEquals(pipeline, json.get("pipeline"));
        assertTrue(num(json, "draw_calls") > 0, "the headless renderer counts the draws it was given");

        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("weft-demo: frame time p50"), text);
        assertTrue(text.contains("level 'tiny' loaded in"), text);
    }

    static double num(Map<String, Object> json, String key) {
        Object v = json.get(key);
        assertNotNull(v, "no key " + key + " in " + json);
        return ((Number) v).doubleValue();
    }
}
