package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * RecordingOverheadMain's command line: a value EmptyJobs cannot use is refused before any JMH fork
 * starts, naming the option, with exit status 2 (it used to fail every fork and write an empty table,
 * exit status 0).
 */
class RecordingOverheadMainTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--submitter=bogus  | --submitter bogus",
        "--workers=0        | --workers 0",
        "--workers=1,x      | --workers x",
        "--out=FILE         | is a file"})
    void anUnusableValueIsRefusedBeforeAnyFork(String option, String expected) throws Exception {
        Path file = tmp.resolve("results.md");
        Files.writeString(file, "not a folder");
        Path out = tmp.resolve("out");
        String given = option.replace("FILE", file.toString());
        String[] args = given.startsWith("--out") ? new String[] {given, "--rounds=1", "--warmup=0", "--iterations=1"}
                : new String[] {given, "--out=" + out, "--rounds=1", "--warmup=0", "--iterations=1"};
        StringWriter err = new StringWriter();
        int status = assertTimeoutPreemptively(Duration.ofMinutes(3), () -> new CommandLine(new RecordingOverheadMain())
                .setErr(new PrintWriter(err, true)).execute(args));  // hang guard only
        assertEquals(2, status, given + ": stderr " + err);
        assertTrue(err.toString().contains(expected), err.toString());
        assertFalse(Files.exists(out), "nothing written for " + given);
    }
}
