package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The ratio summary against a small hand-written JMH result file (src/test/resources/canned-jmh.json). */
class RatioSummaryTest {
    private static final double EPS = 1e-9;
    private static List<RatioSummary.Row> rows;

    @BeforeAll
    static void readCanned() throws IOException {
        try (InputStream in = RatioSummaryTest.class.getResourceAsStream("/canned-jmh.json")) {
            rows = RatioSummary.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static RatioSummary.Comparison find(String shortName, String system, String workers) {
        return RatioSummary.compare(rows).stream()
                .filter(c -> c.row().shortName().equals(shortName) && c.row().system().equals(system))
                .filter(c -> workers == null || workers.equals(c.row().params().get("workers")))
                .findFirst().orElseThrow();
    }

    @Test
    void readsScoresUnitsParamsAndAllocation() {
        assertEquals(11, rows.size());
        RatioSummary.Row weft = rows.getFirst();
        assertEquals("EmptyJobs.submitAndWait", weft.shortName());
        assertEquals("avgt", weft.mode());
        assertEquals("weft", weft.system());
        assertEquals(50.0, weft.score(), EPS);
        assertEquals(2.5, weft.error(), EPS);
        assertEquals("ns/op", weft.unit());
        assertEquals(0.0016, weft.allocBytesPerOp(), EPS);
        assertTrue(Double.isNaN(rows.get(1).error()), "JMH writes a missing error as the string \"NaN\"");
        assertTrue(Double.isNaN(rows.get(3).allocBytesPerOp()), "no -prof gc: no allocation figure");
        assertEquals(Map.of("system", "weft", "workers", "1"), rows.get(3).params());
    }

    @Test
    void timeModesCompareReferenceTimeOverSystemTime() {
        RatioSummary.Comparison weft = find("EmptyJobs.submitAndWait", "weft", null);
        assertEquals(2.0, weft.speedupVs().get("forkjoin"), EPS);   // 100 / 50
        assertEquals(8.0, weft.speedupVs().get("vthreads"), EPS);   // 400 / 50
        RatioSummary.Comparison vthreads = find("EmptyJobs.submitAndWait", "vthreads", null);
        assertEquals(0.25, vthreads.speedupVs().get("forkjoin"), EPS);
        assertEquals(1.0, vthreads.speedupVs().get("vthreads"), EPS);
    }

    @Test
    void otherParametersFormSeparateGroups() {
        RatioSummary.Comparison weft1 = find("ParallelFor.sumOfSqrt", "weft", "1");
        RatioSummary.Comparison weft2 = find("ParallelFor.sumOfSqrt", "weft", "2");
        assertEquals(1100.0 / 1000.0, weft1.speedupVs().get("forkjoin"), EPS);
        assertEquals(650.0 / 520.0, weft2.speedupVs().get("forkjoin"), EPS);
        assertEquals(700.0 / 520.0, weft2.speedupVs().get("vthreads"), EPS);
    }

    @Test
    void throughputComparesSystemOverReferenceAndMissingReferenceIsNull() {
        RatioSummary.Comparison weft = find("Canned.throughput", "weft", null);
        assertEquals(3.0, weft.speedupVs().get("forkjoin"), EPS);   // 30 / 10 ops/ms
        assertNull(weft.speedupVs().get("vthreads"));
        assertEquals("weft", RatioSummary.compare(rows).stream()
                .filter(c -> c.row().shortName().equals("Canned.throughput")).findFirst().orElseThrow()
                .row().system(), "rows are listed weft, forkjoin, vthreads whatever the file's order");
    }

    @Test
    void scalingPairsTheWorkerCountsOfOneSystem() {
        List<RatioSummary.Scaling> scaling = RatioSummary.scaling(rows);
        assertEquals(3, scaling.size());
        RatioSummary.Scaling weft = scaling.stream().filter(s -> s.fewer().system().equals("weft")).findFirst().orElseThrow();
        assertEquals("1", weft.fewer().params().get("workers"));
        assertEquals("2", weft.more().params().get("workers"));
        assertEquals(1000.0 / 520.0, weft.speedup(), EPS);
    }

    @Test
    void markdownHasOneTablePerBenchmarkWithRatios() {
        String md = RatioSummary.markdown(rows, "canned");
        assertTrue(md.startsWith("# canned\n"), md);
        assertTrue(md.contains("## EmptyJobs.submitAndWait (avgt)"), md);
        assertTrue(md.contains("| - | weft | 50.00 | 2.500 | ns/op | 0.0016 | 2.00× | 8.00× |"), md);
        assertTrue(md.contains("| - | forkjoin | 100.0 | - | ns/op | 40.00 | 1.00× | 4.00× |"), md);
        assertTrue(md.contains("| workers=2 | weft | 520.0 | 8.000 | us/op | - | 1.25× | 1.35× |"), md);
        assertTrue(md.contains("| - | weft | 30.00 | 1.000 | ops/ms | - | 3.00× | - |"), md);
        assertTrue(md.contains("| ParallelFor.sumOfSqrt | - | weft | 1000.0 us/op (workers=1) | 520.0 us/op (workers=2) | 1.92× |"), md);
    }
}
