package dev.weft.bench.profiler;

import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * The recorded frames of one system: every frame time in order (for the time-series chart) and the
 * same values in an HdrHistogram (for percentiles).
 *
 * @param system       {@code weft}, {@code forkjoin} or {@code vthreads}
 * @param frameTimesNs frame times in nanoseconds, in frame order
 * @param histogram    the same values, 3 significant digits
 * @param checksum     {@link FrameWorkload#checksum()} after the run: equal across systems for equal work
 */
public record SystemProfile(String system, long[] frameTimesNs, Histogram histogram, long checksum) {

    /** Builds the histogram from {@code frameTimesNs}. */
    public static SystemProfile of(String system, long[] frameTimesNs, long checksum) {
        Histogram h = new Histogram(3);                 // auto-resizing
        for (long t : frameTimesNs) {
            h.recordValue(Math.max(0, t));
        }
        return new SystemProfile(system, frameTimesNs.clone(), h, checksum);
    }

    public int frames() {
        return frameTimesNs.length;
    }

    /**
     * Value at {@code percentile} (0..100) in milliseconds, from the histogram. HdrHistogram reports the
     * top of the value's bucket (within 0.1%), which can exceed the slowest frame: capped at the exact max.
     */
    public double percentileMs(double percentile) {
        long exactMax = Arrays.stream(frameTimesNs).max().orElse(0);
        return Math.min(histogram.getValueAtPercentile(percentile), exactMax) / 1e6;
    }

    /** The exact slowest frame in milliseconds. */
    public double maxMs() {
        return Arrays.stream(frameTimesNs).max().orElse(0) / 1e6;
    }

    /**
     * The exact mean frame time in milliseconds. Not the histogram's mean: that sums each bucket's middle
     * value, which can lie above every frame in it (one 21.534 ms frame had a mean of 21.537 ms, above
     * the max in the same row).
     */
    public double meanMs() {
        return Arrays.stream(frameTimesNs).average().orElse(0) / 1e6;
    }

    /** Frames strictly longer than {@code budgetNanos}, counted exactly. */
    public int framesOver(long budgetNanos) {
        int n = 0;
        for (long t : frameTimesNs) {
            if (t > budgetNanos) {
                n++;
            }
        }
        return n;
    }
}
