package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.JobSystem;
import dev.weft.demo.DemoMain;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The game takes its loader from outside: its compiled classes name no type of {@code dev.weft.demo.loading}
 * nor {@code DemoMain}, and a run closes the loader it was given exactly once, before the job system
 * closes (the pipeline loader's asset manager must cancel its loads while the workers still run).
 */
class LoaderInjectionTest {
    private static final List<String> FORBIDDEN = List.of("dev/weft/demo/loading/", "dev/weft/demo/DemoMain");

    @Test
    void gameClassesReferNeitherToTheLoadingPackageNorToTheEntryPoint() throws IOException, URISyntaxException {
        Path classes = Path.of(Game.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/weft/demo/game");
        List<String> offending = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.list(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                scanned++;
                for (PoolEntry e : ClassFile.of().parse(f).constantPool()) {
                    // Utf8 entries hold every class name and descriptor the class file mentions.
                    if (e instanceof Utf8Entry u && FORBIDDEN.stream().anyMatch(u.stringValue()::contains)) {
                        offending.add(f.getFileName() + ": " + u.stringValue());
                    }
                }
            }
        }
        assertTrue(scanned > 20, "found only " + scanned + " class files in " + classes);
        assertEquals(List.of(), offending);
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(strings = {"tiny", "no-such-level"})
    void theRunClosesItsLoaderOnceBeforeTheJobSystem(String level) {
        AtomicInteger closes = new AtomicInteger();
        AtomicReference<JobSystem> runJobs = new AtomicReference<>();
        AtomicReference<Boolean> jobsTerminatedAtClose = new AtomicReference<>();
        LevelLoading.Factory factory = (jobs, latency) -> {
            runJobs.set(jobs);
            return DemoMain.pipelineLoading(jobs, latency).onClose(() -> {
                closes.incrementAndGet();
                jobsTerminatedAtClose.set(jobs.isTerminated());
            });
        };
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GameConfig cfg = GameConfig.builder().loading(factory)
                .headless(true).frames(5).entities(100).workers(2).level(level)
                .assetLatency(Duration.ZERO).out(new PrintStream(bytes, true, StandardCharsets.UTF_8)).build();
        try {
            Game.run(cfg);
            assertEquals("tiny", level, "only tiny loads");
        } catch (GameException e) {
            assertEquals(Game.EXIT_FAILED, e.exitCode(), e.getMessage());
            assertTrue(e.getMessage().contains("could not be loaded"), e.getMessage());
        }
        String log = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(1, closes.get(), log);
        assertEquals(Boolean.FALSE, jobsTerminatedAtClose.get(), "closed after the job system: " + log);
        assertTrue(runJobs.get().isTerminated(), "the run closes its job system afterwards: " + log);
    }

    @Test
    void aConfigWithoutALoaderIsRefused() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> GameConfig.builder().build());
        assertEquals("loading", e.getMessage());
    }
}
