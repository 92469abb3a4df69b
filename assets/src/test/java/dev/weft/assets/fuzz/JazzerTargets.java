package dev.weft.assets.fuzz;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * What the Jazzer fuzz tests ({@link LevelFileFuzzTest}, {@link ObjParserFuzzTest},
 * {@link PngDecoderFuzzTest}) share: each input is judged by {@link Oracle} (data that meets the
 * contract, or an AssetFormatException naming the file; anything else fails).
 *
 * <p>Under {@code mvn verify} they run in Jazzer's regression mode: each file in
 * {@code src/test/resources/dev/weft/assets/fuzz/<TestClass>Inputs/<method>/} is one input, as raw bytes.
 * Those directories hold the inputs that found the three parser defects
 * ({@code level-coordinate-backtracking.level}: quadratic coordinate backtracking, a hang;
 * {@code obj-overflowing-normals.obj} and {@code obj-fuzz-pillar-scaled-1e30.obj}: non-finite normals;
 * {@code png-stale-failure-reason.png}: an earlier decode's stb failure reason reported) and a few valid
 * generated files. Keep a new finding by copying its input there. In regression mode an input must
 * finish within {@link AssetParserFuzzTest#PER_INPUT}, so a hang fails instead of stalling the build.
 *
 * <p>{@code -Dweft.stress=full} sets JAZZER_FUZZ=1 and runs each class in a surefire execution of its own
 * (assets/pom.xml, profile stress-full; Jazzer fuzzes only one fuzz test per JVM and skips the rest):
 * each fuzzes its one method for five minutes, starting from its inputs directory. Jazzer 0.24.0 cannot instrument class files of Java 25 (its ASM stops at 23), so
 * on JDK 25 that fuzzing gets no coverage feedback: it mutates bytes blind, and the structure-aware
 * {@link Mutator} campaign in {@link AssetParserFuzzTest} stays (see there for what else it does).
 */
final class JazzerTargets {
    private static final String FUZZ = System.getenv("JAZZER_FUZZ");
    static final boolean FUZZING = FUZZ != null && !FUZZ.isEmpty();

    private JazzerTargets() {}

    static void check(Mutator.Format format, String name, byte[] input) {
        if (FUZZING) {
            Oracle.check(format, name, input);                    // libFuzzer's own per-input timeout finds hangs
        } else {
            assertTimeoutPreemptively(AssetParserFuzzTest.PER_INPUT, () -> Oracle.check(format, name, input),
                    "no hang");
        }
    }
}
