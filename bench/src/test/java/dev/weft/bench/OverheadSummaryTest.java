package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class OverheadSummaryTest {
    private static OverheadSummary.Sample live(int round, String config, double ns) {
        return new OverheadSummary.Sample(round, RecordingOverheadMain.PRESENT, config, ns);
    }

    private static OverheadSummary.Sample out(int round, String config, double ns) {
        return new OverheadSummary.Sample(round, RecordingOverheadMain.COMPILED_OUT, config, ns);
    }

    @Test
    void ratiosPairForksOfTheSameRoundAndTheMedianDecides() {
        List<OverheadSummary.Sample> samples = List.of(
                live(0, "job", 41), out(0, "job", 40),       // 1.025
                out(1, "job", 50), live(1, "job", 50),       // 1.000: a slow round pairs with itself
                live(2, "job", 40.4), out(2, "job", 40),     // 1.010
                live(0, "thread", 90), out(0, "thread", 80), // 1.125
                live(1, "thread", 99));                      // no pair: left out
        List<OverheadSummary.Verdict> v = OverheadSummary.verdicts(samples);
        assertEquals(2, v.size());
        OverheadSummary.Verdict job = v.get(0);
        assertEquals("job", job.config());
        assertEquals(3, job.ratios().size());
        assertEquals(1.010, job.median(), 1e-9);
        assertTrue(job.withinBudget());
        OverheadSummary.Verdict thread = v.get(1);
        assertEquals(List.of(1.125), thread.ratios());
        assertFalse(thread.withinBudget());
        String md = OverheadSummary.markdown(samples, "t");
        assertTrue(md.contains("| job | 1.010 | 1.000 | 1.025 | yes |"), md);
        assertTrue(md.contains("| thread | 1.125 | 1.125 | 1.125 | **no** |"), md);
        assertTrue(md.contains("| thread | 2 | 99.000 | - | - |"), md);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(1.5, OverheadSummary.median(List.of(2.0, 1.0, 1.0, 3.0)), 1e-12);
    }
}
