package dev.weft.bench.streaming;

/**
 * Turns the requested CPU times into work sizes on this machine, once per run, before any variant, on
 * the calling thread: the entity substeps for a frame of {@code frameCpuMs} (summed over workers) and
 * the decode units per millisecond. Each figure is the fastest of several timed repetitions after
 * warm-up repetitions (the fastest is the least disturbed by other load on a shared machine), so every
 * variant gets the same work, sized once.
 *
 * @param substeps   entity substeps per frame
 * @param unitsPerMs decode units in one millisecond of one core
 * @param nsPerEntitySubstep measured cost of one entity substep
 */
record Calibration(int substeps, long unitsPerMs, double nsPerEntitySubstep) {
    private static final int PROBE_SUBSTEPS = 16;
    private static final int WARMUP_REPS = 30;
    private static final int TIMED_REPS = 15;
    private static final long PROBE_UNITS = 2_000;

    static Calibration measure(int entities, double frameCpuMs, long seed) {
        EntityWork probe = new EntityWork(entities, PROBE_SUBSTEPS, seed);
        long best = Long.MAX_VALUE;
        for (int r = 0; r < WARMUP_REPS + TIMED_REPS; r++) {
            long t0 = System.nanoTime();
            probe.run(0, entities);
            long took = System.nanoTime() - t0;
            if (r >= WARMUP_REPS) {
                best = Math.min(best, took);
            }
        }
        sink(probe.checksum());
        double nsPerSubstep = (double) best / entities / PROBE_SUBSTEPS;
        int substeps = (int) Math.max(1, Math.round(frameCpuMs * 1e6 / (nsPerSubstep * entities)));

        long bestUnits = Long.MAX_VALUE;
        for (int r = 0; r < WARMUP_REPS + TIMED_REPS; r++) {
            long t0 = System.nanoTime();
            sink(AssetDecode.decode(seed + r, PROBE_UNITS, PROBE_UNITS, AssetDecode.Checkpoint.NONE));
            long took = System.nanoTime() - t0;
            if (r >= WARMUP_REPS) {
                bestUnits = Math.min(bestUnits, took);
            }
        }
        long unitsPerMs = Math.max(1, Math.round(PROBE_UNITS * 1e6 / bestUnits));
        return new Calibration(substeps, unitsPerMs, nsPerSubstep);
    }

    private static volatile long sink;

    /** Publishes a result to a volatile field so the timed loops are not dead code. */
    private static void sink(long v) {
        sink += v;
    }
}
