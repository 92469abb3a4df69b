package dev.weft.demo.game;

import dev.weft.JobSystemStats;
import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Everything the main thread measured in a run; job statistics are added after the job system closed.
 * {@code drawCalls} counts the gameplay frames' draws only, like every other per-frame figure here.
 */
record Played(GameConfig cfg, String display, String clock, int frames, int loadingFrames,
              Histogram histogram, int overBudget, double levelLoadMs, long simTicks, long visibleSum,
              long[] stageNanos, long rangesRun, long rangesExpected, long entityUpdates,
              int loadFailures, String screenshot, SlowestFrames slowest, FrameExtras extras,
              StreamingReport streaming, long entityStateHash, long drawCalls) {

    RunSummary summarize(JobSystemStats stats) {
        Map<String, Double> stages = new HashMap<>();
        for (FrameStage s : FrameStage.values()) {
            stages.put(s.label(), frames == 0 ? 0.0 : stageNanos[s.ordinal()] / 1e6 / frames);
        }
        boolean any = histogram.getTotalCount() > 0;
        return new RunSummary(frames, cfg.frames(), loadingFrames,
                percentileMs(histogram, 50), percentileMs(histogram, 95), percentileMs(histogram, 99),
                any ? histogram.getMaxValue() / 1e6 : 0, any ? histogram.getMean() / 1e6 : 0, overBudget, levelLoadMs, stats.jobsRun(),
                stats.mainThreadJobsRun(), cfg.entities(), cfg.workers(), cfg.pipeline(), display, clock,
                cfg.level(), simTicks, frames == 0 ? 0 : (double) visibleSum / frames, drawCalls, rangesRun,
                rangesExpected, entityUpdates, stages, loadFailures, screenshot, slowest.asMillis(),
                extras, streaming, entityStateHash);
    }

    /** A percentile of nanosecond frame times in ms; 0 for an empty histogram. */
    private static double percentileMs(Histogram h, double percentile) {
        return h.getTotalCount() > 0 ? h.getValueAtPercentile(percentile) / 1e6 : 0;
    }
}
