package dev.weft.assets.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/** Jazzer over {@code LevelFile.parse}; corpus and modes in {@link JazzerTargets}. */
class LevelFileFuzzTest {
    @FuzzTest(maxDuration = "5m")
    void levelFile(FuzzedDataProvider data) {
        JazzerTargets.check(Mutator.Format.LEVEL, "fuzz.level", data.consumeRemainingAsBytes());
    }
}
