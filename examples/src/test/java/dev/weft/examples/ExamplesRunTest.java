package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Runs each example's main method headlessly, as CI does, and checks what it prints. */
class ExamplesRunTest {
    private static final Path LOGS = Path.of("target", "example-runs");

    /**
     * The LWJGL loop draws, frame after frame, exactly what one thread simulating and culling the same
     * world draws: the per-worker lists merged by range start give entity order whoever ran which range.
     */
    @Test
    void theLwjglLoopDrawsWhatASequentialBuildOfTheSameFramesDraws() throws Exception {
        int frames = 30;
        int entities = 3000;
        ExampleJvm.Outcome run = ExampleJvm.run(LwjglLoopExample.class, LOGS.resolve("lwjgl-loop.log"),
                "--frames", Integer.toString(frames), "--entities", Integer.toString(entities));
        if (run.exitCode() != 0 && (run.output().contains("glfwInit failed")
                || run.output().contains("glfwCreateWindow (GL 3.3 core, EGL) failed"))) {
            Assumptions.abort("no headless GL here (Debian: libegl1 libegl-mesa0); the example said:\n"
                    + run.output());
        }
        assertEquals(0, run.exitCode(), run.output());
        assertEquals(Integer.toString(frames), printed(run.output(), "frames"));

        Entities world = Entities.create(entities, LwjglLoopExample.WORLD_SEED);
        DrawList expected = new DrawList(1024);
        for (int f = 0; f < frames; f++) {
            Entities.simulate(world, 0, world.size(), LwjglLoopExample.TICK_SECONDS);
            expected.clear();
            float[] models = Entities.cullAndBuild(world, 0, world.size());
            for (int offset = 0; offset < models.length; offset += DrawList.FLOATS_PER_MODEL) {
                expected.add(models, offset);
            }
        }
        assertTrue(expected.size() > 0 && expected.size() < entities,
                "the view should cull some entities and keep some, kept " + expected.size());
        assertEquals(Integer.toString(expected.size()), printed(run.output(), "last frame draws"), run.output());
        assertEquals(Long.toHexString(expected.contentHash()), printed(run.output(), "last frame draw hash"),
                run.output());
    }

    /** Both stages ran as Weft jobs on fibers, and the one that waited on a counter got the whole sum. */
    @Test
    void theCompletableFutureStagesRunOnFibersAndWaitOnACounter() throws Exception {
        ExampleJvm.Outcome run = ExampleJvm.run(CompletableFutureExample.class, LOGS.resolve("completable-future.log"));
        assertEquals(0, run.exitCode(), run.output());
        long expected = 0;
        for (int i = 0; i < 10_000; i++) {
            expected += 3 + i % 61;
        }
        assertEquals(expected + " vertices, on a fiber: true", run.output().strip());
    }

    private static String printed(String output, String label) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(label) + ": (.*)$").matcher(output);
        if (!m.find()) {
            throw new AssertionError("the example printed no '" + label + ": ' line:\n" + output);
        }
        return m.group(1).strip();
    }
}
