package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * RatioSummary's command line, as bench/README.md shows it, in a child JVM (its main ends the JVM):
 * each mistake gets one line naming the file and an exit status, never a stack trace or an empty table.
 */
class RatioSummaryCommandLineTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--help       | 0 | usage: RatioSummary",
        "missing.json | 2 | cannot read missing.json",
        "junk.json    | 2 | junk.json is not a JMH JSON result file",
        "empty.json   | 1 | empty.json holds no benchmark result"})
    void eachMistakeIsOneLineNamingTheFile(String input, int status, String said) throws Exception {
        Files.writeString(dir.resolve("junk.json"), "{junk");
        Files.writeString(dir.resolve("empty.json"), "[]");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), RatioSummary.class.getName(), input, "summary.md"));
        if (input.equals("--help")) {
            command.removeLast();
        }
        Path out = dir.resolve("out.txt");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "hang guard");
        String printed = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(status, p.exitValue(), input + ": " + printed);
        assertTrue(printed.contains(said), input + ": " + printed);
        assertFalse(printed.contains("\tat "), "a line, not a stack trace: " + printed);
        assertFalse(Files.exists(dir.resolve("summary.md")), "no table written for " + input);
    }
}
