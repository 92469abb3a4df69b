package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.demo.DemoMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo headless on the demo level with chunk streaming on and off, same seed: with it on, chunks
 * load ahead of the camera and unload behind it, and nothing leaks (GPU objects, asset references,
 * native texture memory, all counted by the run itself); either way the simulation ends in the same
 * state, tick for tick, because chunks are scenery. Nothing here depends on how fast the machine is.
 */
@Timeout(600)
class StreamingDemoTest {
    static final int FRAMES = 600;
    static final List<String> STREAMING_KEYS = List.of("streaming", "chunks_loaded", "chunks_unloaded",
            "frames_streaming", "over_budget_streaming", "bytes_streamed", "chunks_start_area", "start_area_wait_ms");
    /** The summary values that are a function of the seed and the tick count alone. */
    static final List<String> DETERMINISTIC_KEYS = List.of("frames", "sim_ticks", "entity_updates", "ranges_run",
            "ranges_expected", "mean_visible", "entity_state_hash");

    @TempDir
    Path tmp;

    @Test
    void streamingLoadsAndUnloadsChunksLeaksNothingAndLeavesTheSimulationAlone() throws Exception {
        Map<String, Object> on = run(true);
        Map<String, Object> off = run(false);
        for (Map<String, Object> json : List.of(on, off)) {
            assertTrue(json.keySet().containsAll(STREAMING_KEYS), "missing streaming keys in " + json.keySet());
        }

        assertEquals(true, on.get("streaming"));
        assertTrue(num(on, "chunks_loaded") >= 4, "chunks ahead of the camera load: " + on);
        assertTrue(num(on, "chunks_start_area") >= 1, "the start area loads behind the loading screen: " + on);
        assertTrue(num(on, "chunks_loaded") - num(on, "chunks_start_area") >= 2,
                "chunks ahead still stream in during gameplay: " + on);
        assertTrue(num(on, "chunks_unloaded") >= 1, "chunks behind the camera unload: " + on);
        assertTrue(num(on, "frames_streaming") >= 1 && num(on, "frames_streaming") <= FRAMES, on.toString());
        assertTrue(num(on, "over_budget_streaming") <= num(on, "frames_streaming")
                && num(on, "over_budget_streaming") <= num(on, "over_budget"), on.toString());
        assertTrue(num(on, "bytes_streamed") > 0, on.toString());
        assertEquals(0, num(on, "chunk_failures"), on.toString());
        assertTrue(num(on, "chunk_gpu_objects_uploaded") >= 4 * num(on, "chunks_loaded"),
                "each chunk uploads two meshes and two textures: " + on);
        assertEquals(0, num(on, "chunk_gpu_objects_leaked"), "every GPU object freed: " + on);
        assertEquals(0, num(on, "chunk_assets_leaked"), "every asset reference released: " + on);
        assertEquals(0, num(on, "chunk_native_memory_leaked"), "every decoded texture's memory freed: " + on);

        assertEquals(false, off.get("streaming"));
        assertEquals(0, num(off, "chunks_loaded"), off.toString());
        assertEquals(0, num(off, "frames_streaming"), off.toString());

        for (String key : DETERMINISTIC_KEYS) {
            assertEquals(off.get(key), on.get(key), key + " must not depend on streaming: on " + on + "\noff " + off);
        }
    }

    private Map<String, Object> run(boolean streaming) throws Exception {
        Path summary = tmp.resolve("summary-" + streaming + ".json");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GameConfig cfg = GameConfig.builder().loading(DemoMain::pipelineLoading).headless(true).frames(FRAMES)
                .entities(1000).workers(2).level("demo").seed(7).assetLatency(java.time.Duration.ofMillis(5))
                .streaming(streaming).summary(summary)
                .out(new PrintStream(bytes, true, StandardCharsets.UTF_8)).build();
        RunSummary s = Game.run(cfg);
        String log = bytes.toString(StandardCharsets.UTF_8);
        String[] lines = log.strip().split("\n");
        assertTrue(lines[lines.length - 2].startsWith("weft-demo: streaming " + (streaming ? "on" : "off")),
                "the summary's last line is the streaming line: " + log);
        assertEquals(s.streaming().on(), streaming);
        return Summaries.read(summary);
    }

    static double num(Map<String, Object> json, String key) {
        Object v = json.get(key);
        assertNotNull(v, "no key " + key + " in " + json);
        return ((Number) v).doubleValue();
    }
}
