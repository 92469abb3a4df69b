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
     * One consistent reading.
     *
     * @param bytesDone   file bytes read so far (failed and placeholder assets count as read once done)
     * @param bytesTotal  file bytes the load will read, 0 while unknown
     * @param assetsDone  assets finished: loaded, replaced by a placeholder, or cancelled
     * @param assetsTotal assets the load has, 0 while unknown
     */
    public record Snapshot(long bytesDone, long bytesTotal, int assetsDone, int assetsTotal) {
        /**
         * 0..1: bytes done over bytes total, or assets over assets while bytes are unknown.
         *
         * @return the fraction done, from 0 to 1; 0 while both totals are unknown
         */
        public double fraction() {
            if (bytesTotal > 0) {
                return Math.min(1.0, (double) bytesDone / bytesTotal);
            }
            return assetsTotal > 0 ? Math.min(1.0, (double) assetsDone / assetsTotal) : 0.0;
        }

        /**
         * True when every asset counted in the total has finished.
         *
         * @return true once the assets done reach a known, non-zero total
         */
        public boolean complete() {
            return assetsTotal > 0 && assetsDone >= assetsTotal;
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
        current.updateAndGet(s -> new Snapshot(s.bytesDone, s.bytesTotal + bytes, s.assetsDone, s.assetsTotal + assets));
    }

    void addDone(long bytes, int assets) {
        if (bytes != 0 || assets != 0) {
            current.updateAndGet(s -> new Snapshot(s.bytesDone + bytes, s.bytesTotal, s.assetsDone + assets, s.assetsTotal));
        }
    }

    @Override
    public String toString() {
        Snapshot s = snapshot();
        return "LoadProgress[" + s.bytesDone + "/" + s.bytesTotal + " bytes, " + s.assetsDone + "/" + s.assetsTotal + " assets]";
    }
}
