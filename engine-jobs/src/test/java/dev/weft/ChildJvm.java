package dev.weft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a single-file Java program in a child JVM on the test class path, for what one JVM cannot show. */
final class ChildJvm {
    private ChildJvm() {}

    /** Runs {@code source} (public class {@code className}) with {@code jvmFlags}; its output and exit code. */
    static Result run(Path dir, String className, String source, String... jvmFlags) throws Exception {
        Path src = dir.resolve(className + ".java");
        Files.writeString(src, source);
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(List.of(jvmFlags));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), src.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), className + " did not exit: " + out);
        return new Result(out, p.exitValue());
    }

    record Result(String output, int exitCode) {}
}
