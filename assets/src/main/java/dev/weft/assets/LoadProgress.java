package dev.weft.assets;

import java.util.concurrent.atomic.AtomicReference;

/**
 * How far a load is, for a loading bar: bytes read and assets finished, against totals. Any thread may
 * update or read it at any time; {@link #snapshot()} is always consistent (all four numbers from one
 * moment), because every update replaces one immutable {@link Snapshot} with a CAS. Updates happen a few
 * times per asset, so the CAS loop never contends for long.
 */
public final class LoadProgress {
    private final AtomicReference<Snapshot> current = new AtomicReference<>(new Snapshot(0, 0, 0, 0));

    /** Made by the asset manager and level loads, which alone update it; users read it. */
    LoadProgress() {}

    /**
     * How a load stands: still {@link #LOADING}, or ended, and how. An {@link AssetManager}'s progress, which
     * covers every load it will ever make, is always {@code LOADING}.
     */
    public enum Outcome {
        /** Not ended: assets may still be read and finished. */
        LOADING,
        /** Ended with a level (some of its assets may be placeholders: see {@link LevelLoad#failures()}). */
        LOADED,
        /** Ended without a level: its file could not be read or was unusable, or the load itself failed. */
        FAILED,
        /** Ended without a level because it was unloaded (cancelled) while loading. */
        CANCELLED
    }

    /**
     * One consistent reading.
     *
     * @param bytesDone   file bytes read so far (failed and placeholder assets count as read once done)
     * @param bytesTotal  file bytes the load will read, 0 while unknown
     * @param assetsDone  assets finished: loaded, replaced by a placeholder, or cancelled
     * @param assetsTotal assets the load has, 0 while unknown
     * @param outcome     {@link Outcome#LOADING} until the load has ended; then how it ended. A
     *                    {@link LevelLoad}'s progress says it has ended exactly when {@link LevelLoad#isDone()}
     *                    does (it is read after that, so the four numbers are final then)
     */
    public record Snapshot(long bytesDone, long bytesTotal, int assetsDone, int assetsTotal, Outcome outcome) {
        /**
         * A reading of a load that has not ended ({@link Outcome#LOADING}).
         *
         * @param bytesDone   file bytes read so far
         * @param bytesTotal  file bytes the load will read, 0 while unknown
         * @param assetsDone  assets finished
         * @param assetsTotal assets the load has, 0 while unknown
         */
        public Snapshot(long bytesDone, long bytesTotal, int assetsDone, int assetsTotal) {
            this(bytesDone, bytesTotal, assetsDone, assetsTotal, Outcome.LOADING);
        }

        /**
         * A reading with its outcome; the components are as the record's description says.
         *
         * @throws NullPointerException if {@code outcome} is null
         */
        public Snapshot {
            if (outcome == null) {
                throw new NullPointerException("outcome is null: use Outcome.LOADING for a load that has not ended");
            }
        }

        /**
         * 0..1 for a loading bar: the mean of bytes done over bytes total and assets done over assets total
         * (either alone while the other's total is unknown), so big files weigh more but the bar is full only
         * once every asset is done, not as soon as the last byte is read (the demo level's decodes and BVH
         * builds ran on for most of its load); 1 once the load has ended, however it ended (nothing more
         * will be read: a bar stops there, and {@link #failed()} says whether to show an error instead).
         *
         * @return the fraction done, from 0 to 1; 0 while both totals are unknown and the load runs
         */
        public double fraction() {
            if (outcome != Outcome.LOADING) {
                return 1.0;
            }
            double bytes = bytesTotal > 0 ? Math.min(1.0, (double) bytesDone / bytesTotal) : -1;
            double assets = assetsTotal > 0 ? Math.min(1.0, (double) assetsDone / assetsTotal) : -1;
            if (bytes < 0) {
                return Math.max(0.0, assets);
            }
            return assets < 0 ? bytes : (bytes + assets) / 2;
        }

        /**
         * True when nothing more will happen to the counts: every asset counted in the total has finished,
         * or the load has ended, in any {@link Outcome} (a level whose file cannot be read ends
         * {@link Outcome#FAILED} with both totals 0, so a loop {@code while (!load.progress().complete())}
         * ends for it too; test {@link #failed()} after it). Every asset may be done a moment before
         * {@link LevelLoad#isDone()} (the entities are still being placed): wait on {@code isDone()} or
         * {@link LevelLoad#awaitDone} before reading {@link LevelLoad#level()}.
         *
         * @return true once the assets done reach a known, non-zero total, or once the load has ended
         */
        public boolean complete() {
            return outcome != Outcome.LOADING || (assetsTotal > 0 && assetsDone >= assetsTotal);
        }

        /**
         * True if the load has ended without a level: {@link Outcome#FAILED} or {@link Outcome#CANCELLED}
         * ({@link LevelLoad#failures()} says why).
         *
         * @return true once the load has ended without a level
         */
        public boolean failed() {
            return outcome == Outcome.FAILED || outcome == Outcome.CANCELLED;
        }

        /** This reading, marked as the end of a load that ended with {@code how}. */
        Snapshot ended(Outcome how) {
            return new Snapshot(bytesDone, bytesTotal, assetsDone, assetsTotal, how);
        }
    }

    /**
     * The current reading.
     *
     * @return a consistent snapshot of all four numbers
     */
    public Snapshot snapshot() {
        return current.get();
    }

    void addTotals(long bytes, int assets) {
        current.updateAndGet(s -> new Snapshot(s.bytesDone, s.bytesTotal + bytes, s.assetsDone, s.assetsTotal + assets, s.outcome));
    }

    void addDone(long bytes, int assets) {
        if (bytes != 0 || assets != 0) {
            current.updateAndGet(s -> new Snapshot(s.bytesDone + bytes, s.bytesTotal, s.assetsDone + assets, s.assetsTotal, s.outcome));
        }
    }

    @Override
    public String toString() {
        Snapshot s = snapshot();
        return "LoadProgress[" + s.bytesDone + "/" + s.bytesTotal + " bytes, " + s.assetsDone + "/" + s.assetsTotal
                + " assets, " + s.outcome + "]";
    }
}
