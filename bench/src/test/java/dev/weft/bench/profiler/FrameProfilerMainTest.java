package dev.weft.bench.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** FrameProfilerMain's command line: every mistake is refused before the first frame, with exit status 2. */
class FrameProfilerMainTest {
    private static final Duration HANG = Duration.ofMinutes(2);

    @TempDir
    Path out;

    /** Runs the profiler on a tiny world; returns the exit status and what picocli wrote to stderr. */
    private record Result(int code, String err) {}

    private Result run(String... options) {
        List<String> args = new ArrayList<>(List.of(options));
        String given = String.join(" ", options);
        // picocli refuses an option given twice, so add only the small defaults the test did not give
        String[][] small = {{"--frames", "2"}, {"--warmup", "1"}, {"--entities", "200"}, {"--grain", "64"},
                {"--systems", "vthreads"}, {"--out", out.toString()}};
        for (String[] d : small) {
            if (!given.contains(d[0])) {
                args.addAll(List.of(d));
            }
        }
        args.add("--uncapped");
        StringWriter err = new StringWriter();
        int code = assertTimeoutPreemptively(HANG, () -> FrameProfilerMain.run(new PrintWriter(err, true),
                args.toArray(String[]::new)));
        return new Result(code, err.toString());
    }

    private void assertNothingWritten() throws Exception {
        try (var files = Files.list(out)) {
            assertEquals(List.of(), files.toList(), "no run, so no report");
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--warmup=-5   | --warmup must be 0 or more, got -5",
            "--frames=0    | --frames must be at least 1, got 0",
            "--entities=-1 | --entities must be at least 1, got -1",
            "--grain=0     | --grain must be at least 1, got 0",
            "--workers=0   | --workers must be 1..1024, got 0",
            "--hz=0        | --hz must be a positive number",
            "--hz=Infinity | --hz must be a positive number"})
    void badNumbersAreRefusedUpFront(String option, String message) throws Exception {
        Result r = run(option);
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertNothingWritten();
    }

    @Test
    void aSystemNamedTwiceIsRefusedBeforeAnyRun() throws Exception {
        Result r = run("--systems=weft,vthreads,weft");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("'weft' is named twice"), r.err());
        assertNothingWritten();
    }

    @Test
    void anUnknownSystemIsRefusedBeforeAnyRun() throws Exception {
        Result r = run("--systems=vthreads,foo");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("unknown system 'foo'") && r.err().contains("weft, forkjoin, vthreads"), r.err());
        assertNothingWritten();
    }

    @Test
    void anOutFolderThatCannotBeMadeIsRefusedBeforeAnyRun() throws Exception {
        Path file = Files.writeString(out.resolve("a-file"), "not a folder");
        Path bad = file.resolve("profile");
        Result r = run("--out", bad.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--out " + bad), r.err());
        assertFalse(r.err().contains("\tat "), "a message, not a stack trace: " + r.err());
    }

    @Test
    void theParentChecksTheOptionsBeforeStartingTheChild() {
        PrintStream err = System.err;
        try {
            System.setErr(new PrintStream(OutputStream.nullOutputStream()));
            assertEquals(2, FrameProfilerMain.check("--warmup", "-5", "--out", out.toString()), "a mistake: no child JVM");
            assertEquals(2, FrameProfilerMain.check("--systems", "foo", "--out", out.toString()));
        } finally {
            System.setErr(err);
        }
        assertEquals(-1, FrameProfilerMain.check("--frames", "5", "--out", out.toString()), "valid: relaunch");
    }

    @Test
    void theProfilerRefusesANegativeWarmup() {
        FrameProfiler p = new FrameProfiler(100, 64, 1);
        try (FrameScheduler s = FrameScheduler.create("vthreads", 1)) {
            assertThrows(IllegalArgumentException.class, () -> p.run(s, -5, 5, 0));
        }
    }

    /**
     * Without --add-opens the profiler reruns itself in a child JVM; SIGTERM to the parent (what
     * {@link Process#destroy()} sends) must take the child with it instead of leaving it to pid 1.
     */
    @Test
    void stoppingTheParentStopsTheChildJvm() throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), FrameProfilerMain.class.getName(),
                // about 1000 s at 1 Hz, idle between frames
                "--systems", "vthreads", "--frames", "1000", "--warmup", "0", "--hz", "1", "--entities", "100",
                "--out", out.toString());
        Process parent = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Optional<ProcessHandle> child = Optional.empty();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (child.isEmpty() && parent.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
                child = parent.toHandle().children().findFirst();
            }
            assertTrue(child.isPresent(), "the parent started a child JVM");
            Thread.sleep(1000); // let the child get going (signal handlers installed)
            ProcessHandle c = child.get();
            assertTrue(c.isAlive() && parent.isAlive(), "both are running before the parent is stopped");
            parent.destroy();
            assertTrue(parent.waitFor(30, TimeUnit.SECONDS), "the parent exits on SIGTERM");
            assertEquals(128 + 15, parent.exitValue(), "the parent was ended by SIGTERM, not by itself");
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (c.isAlive() && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            assertFalse(c.isAlive(), "the child JVM " + c.pid() + " outlived its parent");
        } finally {
            child.ifPresent(ProcessHandle::destroyForcibly);
            parent.destroyForcibly();
        }
    }
}
