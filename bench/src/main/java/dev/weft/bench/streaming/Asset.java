package dev.weft.bench.streaming;

/**
 * One streamed asset: a blocking read of {@code readMs} (a sleep standing in for the disk), then
 * {@code decodeUnits} of CPU decode with a checkpoint every {@code unitsPerCheckpoint} units.
 *
 * @param index  0-based, in submission order
 * @param decodeMs the decode's intended CPU time (from the seeded length draw)
 */
record Asset(int index, long readMs, double decodeMs, long decodeUnits, long unitsPerCheckpoint, long seed) {

    /** How a system makes the read wait: parks a fiber, blocks under a managed blocker, sleeps a virtual thread. */
    @FunctionalInterface
    interface Read {
        void sleep(long millis) throws Exception;
    }

    /** Reads, then decodes; returns the decode's result. */
    long load(Read read, AssetDecode.Checkpoint checkpoint) throws Exception {
        read.sleep(readMs);
        return AssetDecode.decode(seed, decodeUnits, unitsPerCheckpoint, checkpoint);
    }
}
