package dev.weft.demo.game;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import org.HdrHistogram.Histogram;

/**
 * Per gameplay frame, on top of the frame-time histogram: the first {@link #FIRST_FRAMES} frame times
 * by number (the start-up cost warm-up is for) and the latency from the start of frame N's simulation
 * (on a worker, {@code Output.simulateStartNanos}) to frame N's present (on the main thread, after
 * the swap). With {@code --pipeline} frame N simulates while N-1 is drawn, so this is the latency the
 * pipelining adds. Also the JIT's compile time during gameplay: on 2 cores a compiler thread takes a
 * core from the workers (the OS gives it a ~4 ms slice), so this is what the warm-up did not compile.
 * {@link #record} allocates nothing; main thread only.
 */
final class GameplayTimings {
    /** Frames 0 .. FIRST_FRAMES-1 after loading are reported one by one. */
    static final int FIRST_FRAMES = 6;

    private final long[] firstNanos = new long[FIRST_FRAMES];
    private final Histogram latency = new Histogram(3);
    private int recorded;
    private final CompilationMXBean jit = jitWithTime();
    private final long jitStartMs = jit == null ? 0 : jit.getTotalCompilationTime();

    /** Created just before the first gameplay frame: the JIT time from here on is gameplay's. */
    GameplayTimings() {}

    private static CompilationMXBean jitWithTime() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit : null;
    }

    /** Frame {@code frame} took {@code frameNanos}, and was presented {@code presentNanos - simulateStartNanos} after its simulation began. */
    void record(int frame, long frameNanos, long simulateStartNanos, long presentNanos) {
        if (frame < FIRST_FRAMES) {
            firstNanos[frame] = frameNanos;
        }
        latency.recordValue(Math.max(1, presentNanos - simulateStartNanos));
        recorded = Math.max(recorded, Math.min(frame + 1, FIRST_FRAMES));
    }

    /** The run's extras, with what the warm-up did and the last gameplay frame's command hash. */
    FrameExtras finish(WarmUp.Result warmUp, long lastFrameCommandsHash) {
        double[] first = new double[recorded];
        for (int i = 0; i < recorded; i++) {
            first[i] = firstNanos[i] / 1e6;
        }
        boolean any = latency.getTotalCount() > 0;
        return new FrameExtras(warmUp, first,
                any ? latency.getValueAtPercentile(50) / 1e6 : 0,
                any ? latency.getValueAtPercentile(99) / 1e6 : 0,
                any ? latency.getMaxValue() / 1e6 : 0, lastFrameCommandsHash,
                jit == null ? -1 : jit.getTotalCompilationTime() - jitStartMs);
    }
}
