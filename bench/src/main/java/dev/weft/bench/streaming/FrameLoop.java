package dev.weft.bench.streaming;

import dev.weft.bench.profiler.FrameProfiler;
import dev.weft.bench.profiler.SystemProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The game loop on the calling (main) thread: at each tick, hands the assets due this frame to the
 * system, runs the frame's parallel loop and waits for it, then waits for the next tick. Frame time is
 * from the tick's scheduled start to the frame's work done, so a late wake-up of the main thread counts
 * against the frame as it would in a game. A frame that overruns moves the next tick to its end.
 *
 * <p>Assets are spread evenly over the measured frames: asset {@code k} of {@code n} goes out at the
 * start of measured frame {@code k * frames / n}. Warm-up frames never stream.
 */
final class FrameLoop {

    /** What every run shares; {@code frames} and {@code assets} are per run (per round). */
    record Settings(int frames, int warmupFrames, int entities, int grain, int workers, long tickNanos,
                    int assets, long readMs, double decodeMinMs, double decodeMaxMs, double checkpointEveryMs,
                    long seed, Duration drainTimeout) {
    }

    private final Settings s;
    private final Calibration calibration;

    FrameLoop(Settings settings, Calibration calibration) {
        this.s = settings;
        this.calibration = calibration;
    }

    /** The assets of a streamed run in {@code round}: the same seeded decode lengths for every variant. */
    List<Asset> plan(int round) {
        SplittableRandom random = new SplittableRandom(s.seed() + round);
        long unitsPerCheckpoint = Math.max(1, Math.round(s.checkpointEveryMs() * calibration.unitsPerMs()));
        List<Asset> assets = new ArrayList<>(s.assets());
        for (int k = 0; k < s.assets(); k++) {
            double ms = s.decodeMinMs() + random.nextDouble() * (s.decodeMaxMs() - s.decodeMinMs());
            long units = Math.max(1, Math.round(ms * calibration.unitsPerMs()));
            assets.add(new Asset(k, s.readMs(), ms, units, unitsPerCheckpoint, random.nextLong()));
        }
        return assets;
    }

    /** One run of {@code variant}; round {@code round} draws its own asset lengths. */
    RunResult run(Variant variant, boolean streamed, int round) throws InterruptedException {
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        EntityWork work = new EntityWork(s.entities(), calibration.substeps(), s.seed());
        List<Asset> assets = streamed ? plan(round) : List.of();
        AssetTracker tracker = new AssetTracker(assets.size());
        long[] warm = new long[s.warmupFrames()];
        long[] measured = new long[s.frames()];
        boolean drained;
        try (StreamSystem system = variant.create(s.workers())) {
            int next = 0;
            long tick = System.nanoTime();
            for (int f = 0; f < s.warmupFrames() + s.frames(); f++) {
                FrameProfiler.waitUntil(tick);
                int m = f - s.warmupFrames();
                while (m >= 0 && next < assets.size() && (long) next * s.frames() / assets.size() <= m) {
                    tracker.submitting();
                    system.submit(assets.get(next++), tracker);
                }
                system.frame(work.count(), s.grain(), work);
                long took = System.nanoTime() - tick;
                if (m < 0) {
                    warm[f] = took;
                } else {
                    measured[m] = took;
                }
                tick = Math.max(tick + s.tickNanos(), System.nanoTime());
            }
            tracker.closeWindow();
            drained = tracker.awaitAll(s.drainTimeout());
        }
        Throwable failure = tracker.firstFailure();
        String failureText = failure != null ? failure.toString()
                : drained ? null : "assets still running after the " + s.drainTimeout().toSeconds() + " s drain timeout";
        return new RunResult(variant, streamed, SystemProfile.of(variant.name() + " warm-up", warm, 0),
                SystemProfile.of(variant.name(), measured, work.checksum()),
                tracker.submitted(), tracker.finishedInWindow(), tracker.finished(), failureText, work.checksum(), load);
    }
}
