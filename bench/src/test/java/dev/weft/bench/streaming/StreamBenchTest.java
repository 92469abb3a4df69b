package dev.weft.bench.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bench.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark at a tiny size: every variant is in the report with both runs, the counts add up
 * (frames as requested, every submitted asset finished, deltas equal the runs' difference), and the
 * four files are written. Nothing here depends on how fast anything ran.
 */
class StreamBenchTest {
    private static final Duration HANG = Duration.ofMinutes(3);
    private static final int ROUNDS = 2;
    private static final int FRAMES = 6;     // 3 per round
    private static final int WARMUP = 2;     // per round
    private static final int ASSETS = 4;     // 2 per round; the second goes out at frame 1 of 3: its 50 ms read outlasts the round

    @Test
    void tinyRunReportsEveryVariantWithConsistentCounts(@TempDir Path out) throws Exception {
        int exit = assertTimeoutPreemptively(HANG, () -> StreamBenchMain.run("--rounds", "" + ROUNDS, "--frames", "" + FRAMES, "--warmup", "" + WARMUP,
                "--entities", "512", "--frame-cpu-ms", "0.2", "--assets", "" + ASSETS, "--read-ms", "50",
                "--decode-min-ms", "0.5", "--decode-max-ms", "1", "--out", out.toString()));
        assertEquals(0, exit, "exit code: 1 means differing entity work or an asset that failed or did not finish");

        Map<String, Object> root = Json.object(Json.parse(Files.readString(out.resolve(StreamReport.JSON))));
        assertEquals(Boolean.TRUE, root.get("checksumsAgree"));
        List<String> names = new ArrayList<>();
        for (Object o : Json.array(root.get("variants"))) {
            Map<String, Object> v = Json.object(o);
            String name = (String) v.get("variant");
            names.add(name);
            Map<String, Object> without = Json.object(v.get("noStream"));
            Map<String, Object> with = Json.object(v.get("stream"));
            for (Map<String, Object> run : List.of(without, with)) {
                assertEquals(FRAMES, (int) Json.number(run.get("frames")), name);
                assertEquals(FRAMES, Json.array(run.get("frameTimesNs")).size(), name);
                assertEquals(WARMUP * ROUNDS, (int) Json.number(run.get("warmupFrames")), name);
                assertEquals(WARMUP * ROUNDS, Json.array(run.get("warmupFrameTimesNs")).size(), name);
                assertEquals(null, run.get("failure"), name);
            }
            assertEquals(0, (int) Json.number(without.get("assetsSubmitted")), name + " without the stream");
            assertEquals(ASSETS, (int) Json.number(with.get("assetsSubmitted")), name + " submitted");
            assertEquals(ASSETS, (int) Json.number(with.get("assetsFinished")), name + " finished");
            int finishedInWindow = (int) Json.number(with.get("assetsFinishedInWindow"));
            assertTrue(finishedInWindow >= 0 && finishedInWindow <= ASSETS, name + " in window: " + finishedInWindow);
            assertEquals(Json.number(with.get("framesOverBudget")) - Json.number(without.get("framesOverBudget")),
                    Json.number(v.get("overBudgetDelta")), name + " over-budget delta");
            assertEquals(Json.number(with.get("p99Ms")) - Json.number(without.get("p99Ms")),
                    Json.number(v.get("p99DeltaMs")), 1e-9, name + " p99 delta");
        }
        assertEquals(List.of("weft", "weft-cap-off", "weft-checkpoints-off", "weft-waitersHelp-off", "weft-all-off",
                "forkjoin", "vthreads"), names, "every variant, in the report's order");

        List<String> csv = Files.readAllLines(out.resolve(StreamReport.CSV));
        assertEquals(1 + 2 * Variant.ALL.size(), csv.size(), "header and two rows per variant");
        String html = Files.readString(out.resolve(StreamReport.HTML));
        assertEquals(Variant.ALL.size(), html.split("<svg ", -1).length - 1, "one chart per variant");
        String md = Files.readString(out.resolve(StreamReport.MARKDOWN));
        for (Variant v : Variant.ALL) {
            assertTrue(md.contains("| " + v.name()), v.name() + " in the table");
        }
    }

    @Test
    void entityStateDoesNotDependOnTheSplit() {
        EntityWork whole = new EntityWork(1000, 7, 3);
        EntityWork split = new EntityWork(1000, 7, 3);
        for (int f = 0; f < 5; f++) {
            whole.run(0, 1000);
            split.run(0, 333);
            split.run(333, 1000);
        }
        assertEquals(whole.checksum(), split.checksum());
    }

    @Test
    void assetPlanIsSeededAndWithinTheDecodeRange() {
        FrameLoop.Settings s = new FrameLoop.Settings(10, 0, 10, 4, 1, 1_000_000, 50, 1, 5, 20, 0.5, 9, Duration.ofSeconds(1));
        Calibration c = new Calibration(1, 1000, 1);
        List<Asset> a = new FrameLoop(s, c).plan(0);
        assertEquals(a, new FrameLoop(s, c).plan(0), "same seed, same assets");
        assertTrue(!a.equals(new FrameLoop(s, c).plan(1)), "each round its own lengths");
        assertEquals(50, a.size());
        for (Asset asset : a) {
            assertTrue(asset.decodeMs() >= 5 && asset.decodeMs() <= 20, "decode " + asset.decodeMs());
            assertEquals(Math.round(asset.decodeMs() * 1000), asset.decodeUnits());
            assertEquals(500, asset.unitsPerCheckpoint());
        }
    }

    @Test
    void nonsenseOptionsAreRefusedWithTheRule() {
        assertEquals(2, StreamBenchMain.run("--frames", "0"));
        assertEquals(2, StreamBenchMain.run("--decode-min-ms", "9", "--decode-max-ms", "3"));
        assertEquals(2, StreamBenchMain.run("--variants", "nope"));
        assertEquals(2, StreamBenchMain.run("--rounds", "4", "--frames", "6"));
    }

    /** The message names the one option that was wrong, and a file as --out is refused before any run. */
    @Test
    void aBadOptionIsNamedWithItsValue(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("results"), "a file, not a folder");
        String[][] cases = {
            {"--hz", "-1", "--hz -1.0: must be above 0"},
            {"--workers", "0", "--workers 0: must be at least 1"},
            {"--read-ms", "-5", "--read-ms -5: must be 0 or more"},
            {"--out", file.toString(), "--out " + file + " is a file"}};
        PrintStream stderr = System.err;
        try {
            for (String[] c : cases) {
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
                // small settings: the old code ran the whole benchmark before it failed on the --out file
                int exit = assertTimeoutPreemptively(HANG, () -> StreamBenchMain.run(c[0], c[1], "--frames", "2",
                        "--warmup", "0", "--rounds", "1", "--assets", "0", "--entities", "100", "--variants", "weft"));
                String said = err.toString(StandardCharsets.UTF_8);
                assertEquals(2, exit, c[0] + " " + c[1] + ": " + said);
                assertTrue(said.startsWith(c[2]), c[0] + " " + c[1] + ": " + said);
            }
        } finally {
            System.setErr(stderr);
        }
    }
}
