package dev.weft.bench.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bench.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report files from made-up frame times: no clock is involved. */
class ProfileReportTest {
    private static final long BUDGET_NS = 16_666_667;

    /** 0.02 ms, 0.04 ms, ... 20 ms: frames 834..1000 (167 of them) are over 16.67 ms. */
    private static long[] ramp() {
        long[] t = new long[1000];
        for (int i = 0; i < t.length; i++) {
            t[i] = (i + 1) * 20_000L;
        }
        return t;
    }

    /** 5 ms frames with three 30 ms spikes. */
    private static long[] steadyWithSpikes() {
        long[] t = new long[600];
        java.util.Arrays.fill(t, 5_000_000L);
        t[100] = t[300] = t[500] = 30_000_000L;
        return t;
    }

    private static ProfileReport report(long checksumB) {
        ProfileReport.Config config = new ProfileReport.Config(1000, 10, 5000, 256, 2, 60, BUDGET_NS, "25-test", 2);
        return new ProfileReport(config, List.of(
                SystemProfile.of("weft", ramp(), 7L),
                SystemProfile.of("vthreads", steadyWithSpikes(), checksumB)));
    }

    private static double expectedPercentileMs(long[] values, double percentile) {
        Histogram h = new Histogram(3);
        long max = 0;
        for (long v : values) {
            h.recordValue(v);
            max = Math.max(max, v);
        }
        return Math.min(h.getValueAtPercentile(percentile), max) / 1e6;
    }

    @Test
    void writesThreeFilesWhoseJsonHoldsThePercentiles(@TempDir Path dir) throws IOException {
        report(7L).writeTo(dir);
        for (String f : List.of(ProfileReport.MARKDOWN, ProfileReport.JSON, ProfileReport.HTML)) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f);
        }
        Map<String, Object> json = Json.object(Json.parse(Files.readString(dir.resolve(ProfileReport.JSON))));
        assertEquals(BUDGET_NS / 1e6, Json.number(json.get("budgetMs")), 1e-12);
        assertEquals(Boolean.TRUE, json.get("checksumsAgree"));
        assertEquals(60.0, Json.number(Json.object(json.get("config")).get("hz")));
        List<Object> systems = Json.array(json.get("systems"));
        assertEquals(2, systems.size());

        long[][] inputs = {ramp(), steadyWithSpikes()};
        int[] over = {167, 3};
        double[] max = {20.0, 30.0};
        for (int k = 0; k < 2; k++) {
            Map<String, Object> s = Json.object(systems.get(k));
            assertEquals(k == 0 ? "weft" : "vthreads", s.get("system"));
            assertEquals(inputs[k].length, (int) Json.number(s.get("frames")));
            for (int p = 0; p < ProfileReport.PERCENTILES.length; p++) {
                assertEquals(expectedPercentileMs(inputs[k], ProfileReport.PERCENTILES[p]),
                        Json.number(s.get(ProfileReport.PERCENTILE_KEYS[p])), 1e-12, ProfileReport.PERCENTILE_KEYS[p]);
            }
            assertEquals(max[k], Json.number(s.get("maxMs")), 1e-12);
            assertEquals(over[k], (int) Json.number(s.get("framesOverBudget")));
            assertEquals(inputs[k].length, Json.array(s.get("frameTimesNs")).size());
        }
        Map<String, Object> weft = Json.object(systems.getFirst());
        assertEquals(10.0, Json.number(weft.get("p50Ms")), 0.01, "HdrHistogram keeps 3 significant digits");
        assertEquals(20.0, Json.number(weft.get("p999Ms")), 0.02);
    }

    @Test
    void htmlIsSelfContainedWithChartsAndBudgetLine(@TempDir Path dir) throws IOException {
        report(7L).writeTo(dir);
        String html = Files.readString(dir.resolve(ProfileReport.HTML));
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.contains("<svg"), "inline SVG");
        assertEquals(2, html.split("<svg", -1).length - 1, "frame-time chart and histogram (no zoom: max is over half the budget)");
        assertTrue(html.contains("<polyline"), "frame-time series");
        assertTrue(html.contains("class=\"budget\""), "budget line");
        assertTrue(html.contains("budget 16.67 ms"));
        assertTrue(html.contains(">weft<") && html.contains(">vthreads<"), "legend names the systems");
        assertFalse(html.contains("<script") || html.contains("src=\"http") || html.contains("href=\"http"),
                "nothing to load from elsewhere");
    }

    @Test
    void markdownTableAndChecksumWarning() {
        String md = report(7L).markdown();
        assertTrue(md.contains("| system | frames | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | mean ms | over budget |"), md);
        assertTrue(md.contains("| weft | 1000 |"), md);
        assertTrue(md.contains("| 20.000 |") && md.contains("| 167 |"), md);
        assertTrue(md.contains("| vthreads | 600 | 5.00"), md);
        assertTrue(md.contains("equal checksums"), md);
        assertTrue(report(8L).markdown().contains("WARNING"), "different work must be called out");
    }

    @Test
    void fastFramesGetAZoomedChart() {
        long[] fast = new long[100];
        java.util.Arrays.fill(fast, 1_000_000L);
        ProfileReport.Config config = new ProfileReport.Config(100, 0, 10, 1, 1, 0, BUDGET_NS, "25-test", 2);
        String html = new ProfileReport(config, List.of(SystemProfile.of("forkjoin", fast, 1L))).html();
        assertEquals(3, html.split("<svg", -1).length - 1);
        assertTrue(html.contains("frames back to back"));
    }
}
