package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** LevelLoadBenchmark's options: bad values are refused with a message naming the option, before any run. */
class LevelLoadOptionsTest {

    @Test
    void defaults() {
        LevelLoadOptions o = LevelLoadOptions.parse();
        assertEquals("demo", o.level());
        assertEquals(5, o.rounds());
        assertEquals(Runtime.getRuntime().availableProcessors(), o.workers());
        assertEquals(0, o.latencyMs());
        assertEquals(0, o.nice());
        assertTrue(o.cold());
        assertFalse(o.verbose());
        assertFalse(o.help());
    }

    @Test
    void helpIsAnOption() {
        assertTrue(LevelLoadOptions.parse("--help").help());
        assertTrue(LevelLoadOptions.parse("-h").help());
        assertTrue(LevelLoadOptions.USAGE.contains("--latency-ms"), LevelLoadOptions.USAGE);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--workers abc    | --workers wants a whole number",
            "--workers 0      | --workers must be 1..1024, got 0",
            "--rounds 0       | --rounds must be at least 1, got 0",
            "--rounds -1      | --rounds must be at least 1, got -1",
            "--rounds 2.5     | --rounds wants a whole number",
            "--latency-ms -5  | --latency-ms must be 0 or more, got -5",
            "--nice 20        | --nice must be 0..19, got 20",
            "--level          | --level needs a value",
            "--child other    | --child must be serial or weft",
            "--frobnicate     | unknown option --frobnicate"})
    void badValuesAreRefusedWithAMessage(String args, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LevelLoadOptions.parse(args.split(" ")));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void theChildGetsTheSameLevelWorkersLatencyAndNice() {
        LevelLoadOptions o = LevelLoadOptions.parse("--level", "demo", "--workers", "3", "--latency-ms", "20",
                "--nice", "4", "--rounds", "2", "--no-cold", "--verbose");
        LevelLoadOptions child = LevelLoadOptions.parse(o.childArgs("weft").toArray(String[]::new));
        assertEquals(List.of("demo", 3, 20L, 4, "weft"),
                List.of(child.level(), child.workers(), child.latencyMs(), child.nice(), child.child()));
    }
}
