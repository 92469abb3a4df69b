package dev.weft.bench.streaming;

import dev.weft.bench.profiler.SystemProfile;
import java.util.List;
import java.util.stream.LongStream;

/**
 * One variant run with or without the stream (or several rounds of it, {@link #merge}d).
 *
 * @param warmup          the warm-up frames (never streamed), reported apart from the measured ones
 * @param measured        the measured frames
 * @param assetsSubmitted assets handed to the system during the measured frames
 * @param finishedInWindow assets whose decode ended before the last measured frame did
 * @param assetsFinished  assets that ended without failure, after waiting up to the drain timeout
 * @param failure         the first asset failure's text, or null
 * @param entityChecksum  the entity positions' hash after the run (equal across runs: same work)
 * @param loadAverage     the machine's 1-minute load average as the run started (mean over rounds;
 *                        negative where the OS does not say): how shared the CPUs were
 */
record RunResult(Variant variant, boolean streamed, SystemProfile warmup, SystemProfile measured,
                 int assetsSubmitted, int finishedInWindow, int assetsFinished, String failure, long entityChecksum,
                 double loadAverage) {

    String runName() {
        return streamed ? "stream" : "no stream";
    }

    /**
     * The rounds of one variant and stream setting as one result: frames concatenated in round order,
     * counts summed, the first failure kept. Rounds that computed different entity states give the
     * complement of the first checksum, so the report's equal-checksum check fails.
     */
    static RunResult merge(List<RunResult> rounds) {
        RunResult first = rounds.getFirst();
        long[] warm = rounds.stream().flatMapToLong(r -> LongStream.of(r.warmup.frameTimesNs())).toArray();
        long[] measured = rounds.stream().flatMapToLong(r -> LongStream.of(r.measured.frameTimesNs())).toArray();
        boolean same = rounds.stream().mapToLong(RunResult::entityChecksum).distinct().count() == 1;
        long checksum = same ? first.entityChecksum : ~first.entityChecksum;
        return new RunResult(first.variant, first.streamed,
                SystemProfile.of(first.warmup.system(), warm, checksum),
                SystemProfile.of(first.measured.system(), measured, checksum),
                rounds.stream().mapToInt(RunResult::assetsSubmitted).sum(),
                rounds.stream().mapToInt(RunResult::finishedInWindow).sum(),
                rounds.stream().mapToInt(RunResult::assetsFinished).sum(),
                rounds.stream().map(RunResult::failure).filter(f -> f != null).findFirst().orElse(null),
                checksum, rounds.stream().mapToDouble(RunResult::loadAverage).average().orElse(-1));
    }
}
