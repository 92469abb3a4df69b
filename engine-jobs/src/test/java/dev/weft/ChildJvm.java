package dev.weft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Runs a single-file Java program in a child JVM on the test class path, for what one JVM cannot show. The
 * program is compiled in this JVM first, so the child's flags (a tiny heap) apply to the program alone.
 */
final class ChildJvm {
    private ChildJvm() {}

    /** Runs {@code source} (public class {@code className}) with {@code jvmFlags}; its output and exit code. */
    static Result run(Path dir, String className, String source, String... jvmFlags) throws Exception {
        return run(dir, className, source, 120, jvmFlags);
    }

    /** As above, the child killed (and the test failed) if it has not exited after {@code boundSeconds}. */
    static Result run(Path dir, String className, String source, int boundSeconds, String... jvmFlags)
            throws Exception {
        Path src = dir.resolve(className + ".java");
        Files.writeString(src, source);
        String classPath = System.getProperty("java.class.path");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        compile(src, classPath, classes);
        List<String> javaArgs = new ArrayList<>(List.of(jvmFlags));
        javaArgs.addAll(List.of("-cp", classes + File.pathSeparator + classPath, className));
        return java(javaArgs, boundSeconds);
    }

    /**
     * Compiled here, not by the child's source launcher: that compiles inside the child, under the child's
     * flags, and under a child's -Xmx32m it once failed before any test code ran (IllegalArgumentException
     * "0 > -5" from SourceLauncher.execute, InjectionOutOfMemoryTest, 2026-12-08).
     */
    private static void compile(Path src, String classPath, Path classes) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean ok = javac.getTask(diagnostics, null, null,
                List.of("-cp", classPath, "-d", classes.toString(), "-proc:none"), null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(src)).call();
        assertTrue(ok, "the child program " + src + " does not compile: " + diagnostics);
    }

    /** Runs this JVM's {@code java} with {@code javaArgs}; its output and exit code. */
    static Result java(List<String> javaArgs) throws Exception {
        return java(javaArgs, 120);
    }

    private static Result java(List<String> javaArgs, int boundSeconds) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(javaArgs);
        // Output to a file, not a pipe read to its end: a child that never exits would hold that read (and
        // the test) for ever, past the wait's bound. Killed after the bound, it fails the test with its output.
        Path output = Files.createTempFile("child-jvm", ".out");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            boolean exited = p.waitFor(boundSeconds, TimeUnit.SECONDS);
            if (!exited) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String out = Files.readString(output);
            assertTrue(exited, "java " + javaArgs + " did not exit within " + boundSeconds + " s (killed): " + out);
            return new Result(out, p.exitValue());
        } finally {
            Files.deleteIfExists(output);
        }
    }

    record Result(String output, int exitCode) {
        /** The child's {@code RESULT key=value} lines, as a map from key to value. */
        java.util.Map<String, String> results() {
            java.util.Map<String, String> results = new java.util.HashMap<>();
            for (String line : output.split("\\R")) {
                if (line.startsWith("RESULT ")) {
                    int eq = line.indexOf('=');
                    results.put(line.substring(7, eq), line.substring(eq + 1));
                }
            }
            return results;
        }
    }
}
