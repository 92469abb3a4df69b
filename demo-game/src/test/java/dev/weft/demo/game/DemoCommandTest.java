package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.demo.DemoMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The command line: help, bad options (exit 2 with a clear message), and the --trace placeholder. */
class DemoCommandTest {
    record Run(int status, String out, String err) {}

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = DemoCommand.execute(args, DemoMain::pipelineLoading,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpListsEveryOption() {
        Run r = run("--help");
        assertEquals(0, r.status(), r.err());
        for (String option : List.of("--frames", "--entities", "--workers", "--level", "--summary", "--screenshot",
                "--trace", "--headless", "--display", "--pipeline", "--warm-up", "--compare-pipeline", "--frame-graph", "--compare-frame-graph", "--progress",
                "--help")) {
            assertTrue(r.out().contains(option), option + " missing from:\n" + r.out());
        }
        assertTrue(r.out().contains("window|offscreen|none|auto"), r.out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--bogus                        | Unknown option: '--bogus'",
        "--frames x                     | Invalid value for option '--frames'",
        "--frames 0                     | --frames must be at least 1, got 0",
        "--entities -5                  | --entities must be 0..2000000, got -5",
        "--workers 0                    | --workers must be 1..1024, got 0",
        "--display bogus                | Invalid value for option '--display'",
        "--headless --display window    | --headless and --display window contradict each other",
        "--size 12                      | --size wants WxH",
        "--asset-latency-ms -1          | --asset-latency-ms must be 0..10000, got -1",
        "--clock sometimes              | Invalid value for option '--clock'",
        "--frames                       | Missing required parameter for option '--frames'",
        "--frame-graph bogus            | --frame-graph wants parked-waits or job-graph, got 'bogus'",
    })
    void badOptionExitsWithStatus2AndSaysWhy(String args, String message) {
        Run r = run(args.trim().split("\\s+"));
        assertEquals(Game.EXIT_USAGE, r.status(), r.out() + r.err());
        assertTrue(r.err().contains(message), "expected '" + message + "' in:\n" + r.err());
        assertTrue(r.err().contains("Usage: weft-demo"), "usage follows the message:\n" + r.err());
        assertEquals("", r.out(), "nothing ran");
    }

    /**
     * Values that parse but that no run can use are refused before anything runs (the old code ran with them:
     * a 20000x20000 surface, years of latency per file, a summary lost after the run). The extra options keep
     * a run that slips through short; the timeout ends one that hangs (years of latency).
     */
    @ParameterizedTest(name = "{0}")
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @CsvSource(delimiter = '|', value = {
        "--size 20000x20000                   | --size must be 1..8192 per side, got 20000x20000",
        "--size 100000x100000                 | --size must be 1..8192 per side, got 100000x100000",
        "--size 1280x9000                     | --size must be 1..8192 per side, got 1280x9000",
        "--asset-latency-ms 99999999999       | --asset-latency-ms must be 0..10000, got 99999999999",
        "--asset-latency-ms 10001             | --asset-latency-ms must be 0..10000, got 10001",
        "--summary target                     | --summary target is a directory",
        "--summary pom.xml/run/summary.json   | --summary pom.xml/run/summary.json: cannot create its directory",
        "--trace target                       | --trace target is a directory",
        "--screenshot target                  | --screenshot target is a directory",
        "--compare-frame-graph --frame-graph=job-graph "
                + "| --compare-frame-graph runs both parked-waits and job-graph: drop --frame-graph",
        "--compare-frame-graph --frame-graph parked-waits "
                + "| --compare-frame-graph runs both parked-waits and job-graph: drop --frame-graph",
    })
    void unusableValueIsRefusedBeforeAnythingRuns(String args, String message) {
        List<String> all = new java.util.ArrayList<>(List.of(args.trim().split("\\s+")));
        all.addAll(List.of("--headless", "--frames", "1", "--entities", "10", "--level", "tiny", "--warm-up", "off",
                "--streaming", "off"));
        Run r = run(all.toArray(String[]::new));
        assertEquals(Game.EXIT_USAGE, r.status(), r.out() + r.err());
        assertTrue(r.err().contains(message), "expected '" + message + "' in:\n" + r.err());
        assertEquals("", r.out(), "nothing ran");
    }

    @Test
    void displayValuesAreCaseInsensitive() {
        Run r = run("--display", "NONE", "--frames", "2", "--entities", "10", "--level", "tiny", "--asset-latency-ms", "0");
        assertEquals(0, r.status(), r.out() + r.err());
    }

    @Test
    void traceWritesChromeTraceEventJsonWithOneTrackPerWorker() throws Exception {
        java.nio.file.Path file = java.nio.file.Path.of("target", "demo-test.trace.json");
        java.nio.file.Files.deleteIfExists(file);
        Run r = run("--headless", "--trace", file.toString(), "--frames", "30", "--entities", "500",
                "--workers", "2", "--level", "tiny", "--asset-latency-ms", "0");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("job trace written to"), r.out());
        String json = java.nio.file.Files.readString(file);
        assertTrue(json.startsWith("{\"displayTimeUnit\""), json.substring(0, Math.min(200, json.length())));
        assertTrue(json.contains("\"name\":\"worker 0\"") && json.contains("\"name\":\"worker 1\""));
        long begins = json.lines().filter(l -> l.contains("\"ph\":\"B\"")).count();
        long ends = json.lines().filter(l -> l.contains("\"ph\":\"E\"")).count();
        assertEquals(begins, ends, "balanced slices");
        assertTrue(begins > 30, "job slices recorded: " + begins);
    }

    @Test
    void comparePipelineRunsPlainThenPipelinedAndWritesBoth() throws Exception {
        java.nio.file.Path file = java.nio.file.Path.of("target", "demo-test.compare.json");
        java.nio.file.Files.deleteIfExists(file);
        Run r = run("--headless", "--compare-pipeline", "--frames", "40", "--entities", "500", "--workers", "2",
                "--level", "tiny", "--asset-latency-ms", "0", "--warm-up", "OFF", "--summary", file.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("weft-demo: pipeline A/B, 40 frames each"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("\\s+simulate-to-present p99\\s+[0-9.]+\\s+[0-9.]+")), r.out());
        java.util.Map<String, Object> json = Summaries.read(file);
        @SuppressWarnings("unchecked")
        java.util.Map<String, Object> plain = (java.util.Map<String, Object>) json.get("plain");
        @SuppressWarnings("unchecked")
        java.util.Map<String, Object> pipelined = (java.util.Map<String, Object>) json.get("pipelined");
        assertEquals(false, plain.get("pipeline"), json.toString());
        assertEquals(true, pipelined.get("pipeline"), json.toString());
        assertEquals(false, plain.get("warm_up"), "--warm-up reached both runs: " + json);
        assertEquals(plain.get("last_frame_commands_hash"), pipelined.get("last_frame_commands_hash"),
                "pipelining changes the schedule, not the frames: " + json);
    }

    /** Four runs, ABBA; both styles give the same frames (the same last command hash in all four). */
    @Test
    void compareFrameGraphRunsBothStylesAndTheyDrawTheSameFrames() throws Exception {
        java.nio.file.Path file = java.nio.file.Path.of("target", "demo-test.compare-frame-graph.json");
        java.nio.file.Files.deleteIfExists(file);
        Run r = run("--headless", "--compare-frame-graph", "--frames", "30", "--entities", "500", "--workers", "2",
                "--level", "tiny", "--asset-latency-ms", "0", "--warm-up", "OFF", "--summary", file.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("weft-demo: frame graph A/B, 30 frames per run"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("\\s+frame time p99(\\s+[0-9.]+){5}")), r.out());
        assertTrue(r.out().contains("frame graph job-graph") && r.out().contains("frame graph parked-waits"), r.out());
        String json = java.nio.file.Files.readString(file);
        assertTrue(json.startsWith("{\"parked_waits\": [") && json.contains("\"job_graph\": ["), json);
        for (String key : List.of("last_frame_commands_hash", "entity_state_hash")) {
            List<String> hashes = java.util.regex.Pattern.compile("\"" + key + "\": ?\"([0-9a-f]+)\"")
                    .matcher(json).results().map(m -> m.group(1)).toList();
            assertEquals(4, hashes.size(), key + " in " + json);
            assertEquals(1, new java.util.HashSet<>(hashes).size(), "the styles differ in " + key + ": " + hashes);
        }
    }

    @Test
    void comparePipelineRefusesOptionsOfOneRun() {
        Run r = run("--headless", "--compare-pipeline", "--pipeline", "--frames", "2", "--level", "tiny");
        assertEquals(Game.EXIT_USAGE, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("--compare-pipeline runs both with and without --pipeline: drop --pipeline"), r.err());
        r = run("--headless", "--compare-pipeline", "--trace", "target/x.json", "--frames", "2", "--level", "tiny");
        assertEquals(Game.EXIT_USAGE, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("--trace and --screenshot would each describe only one run"), r.err());
    }

    @Test
    void unknownLevelFailsWithStatus1AndNamesTheLevels() {
        Run r = run("--headless", "--level", "nowhere", "--frames", "3", "--entities", "10", "--asset-latency-ms", "0");
        assertEquals(Game.EXIT_FAILED, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("level 'nowhere' could not be loaded"), r.out());
        assertTrue(r.out().contains("demo, tiny"), r.out());
    }

    @Test
    void screenshotWithoutGlSaysSoAndSkips() {
        Run r = run("--display", "none", "--screenshot", "target/never-written.png", "--frames", "2", "--entities", "10",
                "--level", "tiny", "--asset-latency-ms", "0");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("--screenshot target/never-written.png skipped: no GL display"), r.out());
    }
}
