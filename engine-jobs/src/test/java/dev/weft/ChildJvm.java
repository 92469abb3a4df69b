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
        List<String> javaArgs = new ArrayList<>(List.of(jvmFlags));
        javaArgs.addAll(List.of("-cp", System.getProperty("java.class.path"), src.toString()));
        return java(javaArgs);
    }

    /** Runs this JVM's {@code java} with {@code javaArgs}; its output and exit code. */
    static Result java(List<String> javaArgs) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(javaArgs);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "java " + javaArgs + " did not exit: " + out);
        return new Result(out, p.exitValue());
    }

    record Result(String output, int exitCode) {}
}
