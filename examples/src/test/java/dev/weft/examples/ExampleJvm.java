package dev.weft.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs an example's main method in a fresh JVM, with the flags a user's launcher passes (weft.jvm.flags). */
final class ExampleJvm {
    /** Hang guard only; a healthy run takes seconds, and nothing asserts on how long it took. */
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private ExampleJvm() {}

    record Outcome(int exitCode, String output) {}

    static Outcome run(Class<?> main, Path log, String... args) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("cannot tell which java runs this test"));
        String flags = System.getProperty("weft.jvm.flags");
        if (flags == null || flags.isBlank()) {
            throw new IllegalStateException("system property weft.jvm.flags is not set: run through Maven"
                    + " (examples/pom.xml passes the parent's flags)");
        }
        // Surefire's fork puts the real classpath here (java.class.path may be a manifest-only jar).
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(Arrays.asList(flags.trim().split("\\s+")));
        cmd.addAll(List.of("-cp", classpath, main.getName()));
        cmd.addAll(List.of(args));
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("example still running after " + TIMEOUT + ": " + String.join(" ", cmd)
                    + "\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        return new Outcome(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
