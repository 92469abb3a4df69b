package dev.weft.demo.game;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The summary's warm-up and latency extras ({@link RunSummary} keeps them in one component).
 *
 * @param warmUp                 what the warm-up behind the loading screen did ({@code --warm-up})
 * @param firstFramesMs          gameplay frames 0 .. 5 (fewer in a shorter run), ms, by number; they are in
 *                               the percentiles like every other frame
 * @param simulateToPresentP50Ms latency from the start of a frame's simulation to its present, p50
 * @param simulateToPresentP99Ms the same, p99
 * @param simulateToPresentMaxMs the same, max
 * @param lastFrameCommandsHash  the last gameplay frame's merged draw commands, hashed: a function of the
 *                               seed and the frame count alone (lockstep), whatever the warm-up or pipelining
 * @param jitMsDuringGameplay    the JIT compilers' time during gameplay frames, ms, summed over compiler
 *                               threads ({@code CompilationMXBean}); -1 if the JVM does not report it
 */
record FrameExtras(WarmUp.Result warmUp, double[] firstFramesMs, double simulateToPresentP50Ms,
                   double simulateToPresentP99Ms, double simulateToPresentMaxMs, long lastFrameCommandsHash,
                   long jitMsDuringGameplay) {

    FrameExtras {
        firstFramesMs = firstFramesMs.clone();
    }

    @Override
    public double[] firstFramesMs() {
        return firstFramesMs.clone();
    }

    /** Adds this record's JSON keys to {@code m}, in order. */
    void putJson(Map<String, Object> m) {
        m.put("warm_up", warmUp.on());
        m.put("warm_up_frames", warmUp.frames());
        m.put("warm_up_ms", warmUp.ms());
        m.put("jit_ms_during_gameplay", jitMsDuringGameplay);
        Map<String, Object> first = new LinkedHashMap<>();
        for (int i = 0; i < firstFramesMs.length; i++) {
            first.put(Integer.toString(i), firstFramesMs[i]);
        }
        m.put("first_frames_ms", first);
        m.put("simulate_to_present_p50_ms", simulateToPresentP50Ms);
        m.put("simulate_to_present_p99_ms", simulateToPresentP99Ms);
        m.put("simulate_to_present_max_ms", simulateToPresentMaxMs);
        m.put("last_frame_commands_hash", Long.toHexString(lastFrameCommandsHash));
    }

    /** One line: the summary's last. */
    void print(PrintStream out) {
        StringBuilder first = new StringBuilder();
        for (double ms : firstFramesMs) {
            first.append(first.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", ms));
        }
        out.printf(Locale.ROOT, "weft-demo: warm-up %s: %d frames in %.0f ms before gameplay; frames 0-%d: %s ms;"
                        + " JIT compiling during gameplay %s; simulate-to-present latency p50 %.2f ms, p99 %.2f ms,"
                        + " max %.2f ms%n",
                warmUp.on() ? "on" : "off", warmUp.frames(), warmUp.ms(), Math.max(0, firstFramesMs.length - 1), first,
                jitMsDuringGameplay < 0 ? "not reported" : jitMsDuringGameplay + " ms",
                simulateToPresentP50Ms, simulateToPresentP99Ms, simulateToPresentMaxMs);
    }
}
