package dev.weft.assets.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/** Jazzer over {@code ObjParser.parse}; corpus and modes in {@link JazzerTargets}. */
class ObjParserFuzzTest {
    @FuzzTest(maxDuration = "5m")
    void objParser(FuzzedDataProvider data) {
        JazzerTargets.check(Mutator.Format.OBJ, "fuzz.obj", data.consumeRemainingAsBytes());
    }
}
