package dev.weft.bench.streaming;

import dev.weft.bench.profiler.SystemProfile;

/**
 * One variant run with or without the stream.
 *
 * @param warmup          the warm-up frames (never streamed), reported apart from the measured ones
 * @param measured        the measured frames
 * @param assetsSubmitted assets handed to the system during the measured frames
 * @param finishedInWindow assets whose decode ended before the last measured frame did
 * @param assetsFinished  assets that ended without failure, after waiting up to the drain timeout
 * @param failure         the first asset failure's text, or null
 * @param entityChecksum  the entity positions' hash after the run (equal across runs: same work)
 */
record RunResult(Variant variant, boolean streamed, SystemProfile warmup, SystemProfile measured,
                 int assetsSubmitted, int finishedInWindow, int assetsFinished, String failure, long entityChecksum) {

    String runName() {
        return streamed ? "stream" : "no stream";
    }
}
