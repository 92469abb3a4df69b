package dev.weft.bench.streaming;

/**
 * An asset's CPU decode: {@code units} blocks of integer arithmetic (an xorshift-multiply mix, the shape
 * of a decompressor's inner loop), with a {@link Checkpoint} call every {@code unitsPerCheckpoint}
 * blocks. {@link Calibration} measures how many units take a millisecond. The result is returned and
 * summed by the caller, so the arithmetic is consumed.
 */
final class AssetDecode {
    /** Mix rounds in one unit: long enough that the checkpoint test between units costs nothing. */
    static final int ROUNDS_PER_UNIT = 256;

    /** What the decode loop calls between units: {@code Jobs.checkpoint()}, or nothing. */
    @FunctionalInterface
    interface Checkpoint {
        Checkpoint NONE = () -> { };

        void reached();
    }

    private AssetDecode() {
    }

    /** Runs {@code units} units seeded with {@code seed}, calling {@code checkpoint} every {@code unitsPerCheckpoint}. */
    static long decode(long seed, long units, long unitsPerCheckpoint, Checkpoint checkpoint) {
        long state = seed | 1;
        long sum = 0;
        long untilCheckpoint = unitsPerCheckpoint;
        for (long u = 0; u < units; u++) {
            for (int r = 0; r < ROUNDS_PER_UNIT; r++) {
                state ^= state << 13;
                state ^= state >>> 7;
                state ^= state << 17;
                sum += state * 0x9E3779B97F4A7C15L;
            }
            if (--untilCheckpoint == 0) {
                untilCheckpoint = unitsPerCheckpoint;
                checkpoint.reached();
            }
        }
        return sum;
    }
}
