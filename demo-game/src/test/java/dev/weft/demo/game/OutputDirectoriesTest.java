package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.demo.DemoMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/profiling.md's command, {@code --trace target/frames.json --summary target/summary.json}, run from
 * a checkout with no {@code target/}: README promises that missing directories are created when the files
 * are written, and the run's results must not be lost at its end.
 */
class OutputDirectoriesTest {

    @Test
    void traceAndSummaryInADirectoryThatDoesNotExistYetAreBothWritten(@TempDir Path tmp) throws Exception {
        Path trace = tmp.resolve("target").resolve("frames.json");
        Path summaryFile = tmp.resolve("target").resolve("summary.json");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        GameConfig cfg = GameConfig.builder().loading(DemoMain::pipelineLoading).headless(true).frames(5)
                .entities(100).workers(2).level("tiny").warmUp(false).streaming(false)
                .assetLatency(Duration.ZERO).trace(trace).summary(summaryFile)
                .out(new PrintStream(printed, true, StandardCharsets.UTF_8)).build();
        RunSummary summary = Game.run(cfg);       // threw "cannot write --trace ...: NoSuchFileException"
        assertEquals(5, summary.frames());
        assertTrue(Files.size(trace) > 0, "the trace was written");
        assertTrue(Files.readString(summaryFile).contains("\"frames\""), "the summary was written");
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("job trace written to " + trace), printed::toString);
    }
}
