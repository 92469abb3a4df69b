package dev.weft.demo.render;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Runs {@link RenderSmoke} in a fresh JVM (same java binary and test classpath), optionally under a wrapper. */
final class ChildJvm {
    /** Hang guard only; a healthy run takes a few seconds, and nothing asserts on how long it took. */
    static final Duration TIMEOUT = Duration.ofMinutes(5);

    private ChildJvm() {}

    record Outcome(int exitCode, String output) {}

    static Outcome runSmoke(List<String> wrapper, List<String> smokeArgs, Path log, Consumer<Map<String, String>> env)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("cannot tell which java runs this test"));
        // Surefire's fork puts the real classpath here (java.class.path may be a manifest-only jar).
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-cp", classpath, RenderSmoke.class.getName()));
        cmd.addAll(smokeArgs);
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        env.accept(pb.environment());
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("child JVM still running after " + TIMEOUT + ": " + String.join(" ", cmd)
                    + "\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        return new Outcome(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    /** The first executable called {@code name} on PATH. */
    static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
