package dev.weft.demo.game;

import dev.weft.JobSystem;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Loads a level in the background while the game loop keeps running: the contract between the game
 * and the asset manager / level loader. The game knows only this interface: the caller passes a
 * {@link Factory} in {@link GameConfig#loading()} ({@code dev.weft.demo.DemoMain} passes the real one,
 * {@code dev.weft.demo.loading.PipelineLevelLoading} over the {@code dev.weft.assets} library).
 *
 * <p>The game's loading loop, once per frame on the main thread:
 * <pre>{@code
 * LevelLoading.Handle load = loading.start("demo");
 * while (!load.isDone()) {
 *     renderer.drawLoadingScreen((float) load.progress().fraction());
 *     jobs.runMainThreadJobs(budgetNanos);            // the loader may queue GL work here
 *     load.awaitDone(timeLeftInFrame);                // sleeps, but runs main-thread jobs meanwhile
 * }
 * Level level = load.level().orElseThrow();           // empty if it failed: see load.failures()
 * }</pre>
 *
 * <p>Threading: {@code start} may be called from any thread; the work runs as Weft jobs. Every
 * {@link Handle} method may be called from any thread at any time and never blocks, except
 * {@link Handle#awaitDone}.
 */
public interface LevelLoading extends AutoCloseable {

    /** Makes a run's loader once its job system exists. Main thread, once per run. */
    @FunctionalInterface
    interface Factory {
        /** @param assetLatency {@code --asset-latency-ms}: extra time per asset file read (a slow disk) */
        LevelLoading open(JobSystem jobs, Duration assetLatency);
    }

    /** Starts loading {@code levelName} and returns at once. Never throws for a bad level: see failures. */
    Handle start(String levelName);

    /** One load in progress (or finished). */
    interface Handle {
        String levelName();

        /** A consistent snapshot of how far the load is. */
        Progress progress();

        /** True once the load has ended: loaded, failed or cancelled. Then {@link #progress()} is final. */
        boolean isDone();

        /**
         * Waits at most {@code timeout} for the load to end; true if it has. On the main thread this keeps
         * running main-thread jobs while it waits (as any Weft wait does).
         */
        boolean awaitDone(Duration timeout);

        /**
         * The loaded level, once {@link #isDone()}; empty while loading and when the load failed or was
         * cancelled. A level may be present with non-empty {@link #failures()} if the loader substituted
         * placeholders for assets it could not load.
         */
        Optional<Level> level();

        /** Everything that went wrong so far, in the order it happened. */
        List<AssetFailure> failures();

        /** Per-asset timings of the assets finished so far. */
        List<AssetTiming> timings();

        /** Asks the load to stop; it ends soon after with no level. Idempotent. */
        void cancel();
    }

    /**
     * Frees what the loader holds (an asset manager, say: it cancels and frees its loads). The game calls
     * it once after the run, before it closes the job system. Default: nothing to free.
     */
    @Override
    default void close() {}

    /** This loader, also running {@code action} when closed (first, then this loader's own close). */
    default LevelLoading onClose(Runnable action) {
        LevelLoading self = this;
        return new LevelLoading() {
            @Override
            public Handle start(String levelName) {
                return self.start(levelName);
            }

            @Override
            public void close() {
                try {
                    action.run();
                } finally {
                    self.close();
                }
            }
        };
    }

    /**
     * How far a load is. {@code bytes} are the asset bytes read (or generated) so far; totals are known
     * from the level's asset list when the load starts (0 before that).
     */
    record Progress(long bytesDone, long bytesTotal, int assetsDone, int assetsTotal) {
        /**
         * 0..1 for a progress bar: the mean of the bytes fraction and the assets fraction, so big files
         * weigh more but the bar reaches 1 only when every asset (zero-byte derived ones too) is done.
         * Either fraction alone when the other's total is unknown (0).
         */
        public double fraction() {
            double bytes = bytesTotal > 0 ? Math.min(1.0, (double) bytesDone / bytesTotal) : -1;
            double assets = assetsTotal > 0 ? Math.min(1.0, (double) assetsDone / assetsTotal) : -1;
            if (bytes < 0) {
                return Math.max(0.0, assets);
            }
            return assets < 0 ? bytes : (bytes + assets) / 2;
        }
    }

    /**
     * An asset (or the level as a whole, with {@code asset} = the level name) that could not be loaded.
     *
     * @param cause null if there was no exception
     */
    record AssetFailure(String asset, String message, Throwable cause) {
        @Override
        public String toString() {
            return asset + ": " + message;
        }
    }

    /**
     * Where one asset's load time went, all times in nanoseconds since {@link LevelLoading#start}.
     *
     * @param kind      {@code texture}, {@code mesh}, {@code collision}, ...
     * @param startNanos when its job started
     * @param ioNanos   time its job was parked waiting for I/O
     * @param cpuNanos  time spent decoding / generating / building
     * @param endNanos  when it was finished
     */
    record AssetTiming(String asset, String kind, long bytes, long startNanos, long ioNanos, long cpuNanos,
                       long endNanos) {
    }
}
