package dev.weft.assets.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator's command line as assets/README.md shows it, run in a child JVM (its {@code main} ends
 * the JVM with the exit status). A bad argument must be refused before anything is written.
 */
class GenerateLevelsCommandLineTest {

    private record Result(int status, String out, String err) {
    }

    private static Result generate(Path workingDir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), GenerateLevels.class.getName()));
        command.addAll(List.of(args));
        Path out = workingDir.resolve("stdout.txt");
        Path err = workingDir.resolve("stderr.txt");
        Process p = new ProcessBuilder(command).directory(workingDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {           // hang guard only
            p.destroyForcibly();
            throw new AssertionError("GenerateLevels " + String.join(" ", args) + " did not end within 120 s");
        }
        Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    private static List<String> entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void helpPrintsUsageAndWritesNothing(@TempDir Path dir) throws Exception {
        Result r = generate(dir, "--help");
        assertEquals(0, r.status(), "stderr: " + r.err());
        assertTrue(r.out().contains("usage: GenerateLevels"), "stdout: " + r.out());
        assertEquals(List.of(), entries(dir), "--help must not be taken as the output directory");
    }

    @Test
    void anUnknownLevelIsRefusedBeforeAnyLevelIsWritten(@TempDir Path dir) throws Exception {
        Result r = generate(dir, "levels", "tiny", "dmeo");
        assertEquals(2, r.status(), "stdout: " + r.out() + " stderr: " + r.err());
        assertTrue(r.err().contains("no level 'dmeo'") && r.err().contains("known: demo, tiny, world"), r.err());
        assertFalse(r.err().contains("\tat "), "a message, not a stack trace: " + r.err());
        assertFalse(Files.exists(dir.resolve("levels")), "nothing may be written: " + entries(dir));
    }

    @Test
    void anOutputDirectoryThatIsAFileIsRefusedWithAMessage(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("levels"), "not a directory");
        Result r = generate(dir, "levels", "tiny");
        assertEquals(2, r.status(), "stdout: " + r.out() + " stderr: " + r.err());
        assertTrue(r.err().contains("levels is a file"), r.err());
        assertFalse(r.err().contains("\tat "), "a message, not a stack trace: " + r.err());
    }
}
