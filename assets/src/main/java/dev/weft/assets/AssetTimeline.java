package dev.weft.assets;

import java.util.Locale;

/**
 * Where one asset's load time went: {@link System#nanoTime()} stamps of its phases, 0 for a phase it
 * never reached (a headless load has no upload; a failed one may stop early).
 *
 * <pre>
 * queued ──▶ started ──▶ input ready ──▶ decoded ──▶ uploaded ──▶ ended
 *  request    job runs    bytes arrived    PNG/OBJ/BVH  GPU upload
 *                         (derived assets: their source mesh loaded)
 * </pre>
 *
 * @param id            the asset
 * @param bytes         file bytes read (0 for derived and placeholder assets)
 * @param queuedNanos   when it was first requested
 * @param startedNanos  when its load job started on a worker
 * @param inputNanos    when its input was there: the I/O read completed, or for a collision, its mesh
 * @param decodedNanos  when decoding (or building) finished
 * @param uploadedNanos when the main-thread upload finished, 0 if there was none
 * @param endedNanos    when it was finished
 */
public record AssetTimeline(AssetId id, long bytes, long queuedNanos, long startedNanos, long inputNanos,
                            long decodedNanos, long uploadedNanos, long endedNanos) {

    /**
     * Queued until its job started.
     *
     * @return the time queued, in milliseconds; 0 if a stamp is missing
     */
    public double queuedMs() {
        return ms(queuedNanos, startedNanos);
    }

    /**
     * Waiting for input: I/O for files (the fiber was parked), the source mesh for derived assets.
     *
     * @return the time waiting for input, in milliseconds; 0 if a stamp is missing
     */
    public double ioMs() {
        return ms(startedNanos, inputNanos);
    }

    /**
     * Decoding or building, including time queued for a decode slot.
     *
     * @return the time decoding, in milliseconds; 0 if a stamp is missing
     */
    public double decodeMs() {
        return ms(inputNanos, decodedNanos);
    }

    /**
     * Waiting for and running the main-thread upload; 0 without upload.
     *
     * @return the time uploading, in milliseconds; 0 if a stamp is missing
     */
    public double uploadMs() {
        return ms(decodedNanos, uploadedNanos);
    }

    /**
     * Request to end.
     *
     * @return the whole load time, in milliseconds; 0 if a stamp is missing
     */
    public double totalMs() {
        return ms(queuedNanos, endedNanos);
    }

    private static double ms(long from, long to) {
        return from == 0 || to == 0 ? 0.0 : (to - from) / 1e6;
    }

    /** {@code texture:x.png 1234 B: queued 0.1 + io 100.2 + decode 3.1 + upload 0.0 = 103.4 ms}. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s %d B: queued %.1f + io %.1f + decode %.1f + upload %.1f = %.1f ms",
                id, bytes, queuedMs(), ioMs(), decodeMs(), uploadMs(), totalMs());
    }
}
