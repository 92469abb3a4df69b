package dev.weft.bench.profiler;

import java.util.concurrent.locks.LockSupport;

/**
 * Runs the frame job graph of {@link FrameWorkload} on one {@link FrameScheduler} and records how
 * long each frame took, from the frame's start to the end of its last stage.
 *
 * <p>With a cadence ({@code frameIntervalNanos > 0}) frame {@code i} starts at {@code t0 + i * interval}
 * (or at once when the previous frame overran), as a game at a fixed refresh does; between frames the
 * workers go idle, so each frame also pays for waking them. Without one, frames run back to back.
 */
public final class FrameProfiler {
    private static final long SPIN_BEFORE_DEADLINE_NS = 200_000;

    private final int entities;
    private final int grain;
    private final long seed;

    public FrameProfiler(int entities, int grain, long seed) {
        this.entities = entities;
        this.grain = grain;
        this.seed = seed;
    }

    /**
     * @param warmupFrames       frames run first and not recorded (JIT warm-up)
     * @param frames             frames recorded
     * @param frameIntervalNanos cadence, or 0 for as fast as possible
     */
    public SystemProfile run(FrameScheduler scheduler, int warmupFrames, int frames, long frameIntervalNanos) {
        // a negative warm-up would make the loop run no frame at all and report zeros as frame times
        if (warmupFrames < 0 || frames < 1 || frameIntervalNanos < 0) {
            throw new IllegalArgumentException("warmupFrames must be >= 0, frames >= 1, frameIntervalNanos >= 0; got "
                    + warmupFrames + ", " + frames + ", " + frameIntervalNanos);
        }
        FrameWorkload w = new FrameWorkload(entities, seed);
        long[] times = new long[frames];
        long next = System.nanoTime();
        for (int f = 0; f < warmupFrames + frames; f++) {
            if (frameIntervalNanos > 0) {
                waitUntil(next);
                next = Math.max(next + frameIntervalNanos, System.nanoTime());
            }
            long start = System.nanoTime();
            runFrame(scheduler, w, f);
            long took = System.nanoTime() - start;
            if (f >= warmupFrames) {
                times[f - warmupFrames] = took;
            }
        }
        return SystemProfile.of(scheduler.name(), times, w.checksum());
    }

    /** One frame: the camera on this thread, then the five stages as a job graph; waits for the last. */
    void runFrame(FrameScheduler s, FrameWorkload w, int frame) {
        int n = w.count();
        w.beginFrame(frame);
        FrameScheduler.Stage move = s.parallelFor("move", n, grain, w.move);
        FrameScheduler.Stage collide = s.parallelFor("collide", n, grain, w.collide, move);
        FrameScheduler.Stage animate = s.parallelFor("animate", n, grain, w.animate, collide);
        FrameScheduler.Stage cull = s.parallelFor("cull", n, grain, w.cull, collide);
        s.parallelFor("render", n, grain, w.buildCommands, animate, cull).await();
    }

    /** Sleeps until {@code deadline} ({@link System#nanoTime()} time), spinning for its last 0.2 ms to wake on time. */
    public static void waitUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > SPIN_BEFORE_DEADLINE_NS) {
            LockSupport.parkNanos(left - SPIN_BEFORE_DEADLINE_NS);
        }
        while (deadline - System.nanoTime() > 0) {
            Thread.onSpinWait();
        }
    }
}
