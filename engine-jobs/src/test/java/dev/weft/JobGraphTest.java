package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link JobGraph}: built once, run every frame with fresh counters, cycles refused by name. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JobGraphTest {

    /** A frame-shaped graph run 500 times: every node once per run, after its predecessors, no fiber parked. */
    @Test
    void aGraphRunsEveryFrameWithEachNodeOnceAfterItsPredecessorsAndNothingParked() {
        try (JobSystem jobs = TestSupport.system(2)) {
            int n = 4096;
            int[] simulated = new int[n];
            int[] culled = new int[n];
            AtomicIntegerArray nodeRuns = new AtomicIntegerArray(3);
            AtomicLong frameOfMerge = new AtomicLong();
            AtomicInteger outOfOrder = new AtomicInteger();
            int[] frame = new int[1];                   // input set before each run; the submission publishes it
            JobGraph.Builder b = JobGraph.builder("frame");
            JobGraph.Node simulate = b.parallelFor("simulate", Priority.FRAME, 0, n, 128, (s, e, w) -> {
                for (int i = s; i < e; i++) {
                    simulated[i] = frame[0];
                }
            });
            JobGraph.Node cull = b.parallelFor("cull", Priority.FRAME, 0, n, 128, (s, e, w) -> {
                for (int i = s; i < e; i++) {
                    if (simulated[i] != frame[0]) {
                        outOfOrder.incrementAndGet();
                    }
                    culled[i] = frame[0];
                }
            });
            JobGraph.Node audio = b.job("audio", Priority.NORMAL, () -> nodeRuns.incrementAndGet(0));
            JobGraph.Node merge = b.job("merge", Priority.FRAME, () -> {
                for (int i = 0; i < n; i++) {
                    if (culled[i] != frame[0]) {
                        outOfOrder.incrementAndGet();
                    }
                }
                nodeRuns.incrementAndGet(1);
                frameOfMerge.set(frame[0]);
            });
            simulate.precedes(cull).precedes(merge);
            audio.precedes(merge);
            JobGraph graph = b.build();
            assertEquals(List.of("simulate", "audio", "cull", "merge"),
                    graph.nodes().stream().map(JobGraph.Node::name).toList());

            int frames = 500;
            long waitsBefore = jobs.stats().waits();
            for (int f = 1; f <= frames; f++) {
                frame[0] = f;
                Counter done = new Counter("frame " + f);
                graph.run(jobs, done);
                TestSupport.await(done);
                assertEquals(f, frameOfMerge.get(), "merge did not run in frame " + f);
            }
            assertEquals(0, outOfOrder.get(), "a node ran before its predecessor finished");
            assertEquals(frames, nodeRuns.get(0));
            assertEquals(frames, nodeRuns.get(1));
            assertEquals(waitsBefore, jobs.stats().waits(), "a fiber parked while graphs ran");
        }
    }

    @Test
    void aCycleIsRefusedAtBuildTimeAndNamed() {
        JobGraph.Builder b = JobGraph.builder("frame");
        JobGraph.Node input = b.job("input", Priority.FRAME, () -> { });
        JobGraph.Node cull = b.job("cull", Priority.FRAME, () -> { });
        JobGraph.Node build = b.job("build", Priority.FRAME, () -> { });
        JobGraph.Node merge = b.job("merge", Priority.FRAME, () -> { });
        input.precedes(cull).precedes(build).precedes(merge);
        merge.precedes(cull);
        IllegalStateException e = assertThrows(IllegalStateException.class, b::build);
        assertTrue(e.getMessage().contains("cycle: cull -> build -> merge -> cull"), e.getMessage());

        JobGraph.Builder self = JobGraph.builder("self");
        JobGraph.Node a = self.job("a", Priority.NORMAL, () -> { });
        a.precedes(a);
        assertTrue(assertThrows(IllegalStateException.class, self::build).getMessage().contains("cycle: a -> a"));
    }

    @Test
    void misuseIsRefusedWithAMessage() {
        JobGraph.Builder b = JobGraph.builder("g");
        JobGraph.Node a = b.job("a", Priority.NORMAL, () -> { });
        assertThrows(IllegalArgumentException.class, () -> b.job("a", Priority.NORMAL, () -> { }));
        JobGraph.Node other = JobGraph.builder("h").job("x", Priority.NORMAL, () -> { });
        assertThrows(IllegalArgumentException.class, () -> a.precedes(other));
        b.build();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> b.job("late", Priority.NORMAL, () -> { }));
        assertTrue(e.getMessage().contains("already built"), e.getMessage());
    }

    @Test
    void aFailedNodeFailsTheNodesAfterItWithoutRunningThemAndTheRunsCounterNamesIt() {
        try (JobSystem jobs = TestSupport.system(2)) {
            AtomicInteger afterRan = new AtomicInteger();
            AtomicInteger independentRan = new AtomicInteger();
            JobGraph.Builder b = JobGraph.builder("level");
            JobGraph.Node parse = b.job("parse", Priority.NORMAL, () -> { throw new IllegalStateException("chunk 7: bad header"); });
            JobGraph.Node upload = b.job("upload", Priority.NORMAL, afterRan::incrementAndGet);
            b.job("independent", Priority.NORMAL, independentRan::incrementAndGet);
            parse.precedes(upload);
            JobGraph g = b.build();
            for (int run = 0; run < 3; run++) {                 // the graph is reusable after a failed run
                Counter done = new Counter("run");
                g.run(jobs, done);
                JobFailedException f = assertThrows(JobFailedException.class, () -> TestSupport.await(done));
                assertTrue(f.getMessage().contains("bad header"), f.getMessage());
            }
            assertEquals(0, afterRan.get(), "a node after a failed one ran");
            assertEquals(3, independentRan.get());
        }
    }

    /**
     * A parallelFor node over an empty range (a cull with nothing visible this frame) keeps its edges: the
     * node after it waits for the node before it, and the run's counter for both. Before, the empty node
     * completed at once, so merge ran before simulate ended and a failure of simulate was lost.
     */
    @Test
    void anEmptyParallelForNodeKeepsItsEdgesAndPassesAFailureOn() {
        try (JobSystem jobs = TestSupport.system(2)) {
            java.util.concurrent.atomic.AtomicBoolean simulated = new java.util.concurrent.atomic.AtomicBoolean();
            AtomicInteger mergedEarly = new AtomicInteger();
            JobGraph.Builder b = JobGraph.builder("frame");
            JobGraph.Node simulate = b.job("simulate", Priority.FRAME, () -> { Thread.sleep(5); simulated.set(true); });
            JobGraph.Node cull = b.parallelFor("cull", Priority.FRAME, 0, 0, 64, (s, e, w) -> { });
            JobGraph.Node merge = b.job("merge", Priority.FRAME, () -> {
                if (!simulated.get()) {
                    mergedEarly.incrementAndGet();
                }
            });
            simulate.precedes(cull).precedes(merge);
            JobGraph g = b.build();
            for (int frame = 0; frame < 10; frame++) {
                simulated.set(false);
                Counter done = new Counter("frame");
                g.run(jobs, done);
                TestSupport.await(done);
                assertTrue(simulated.get(), "frame " + frame + ": the run ended before simulate");
            }
            assertEquals(0, mergedEarly.get(), "merge ran before simulate ended");

            AtomicInteger mergeRan = new AtomicInteger();
            JobGraph.Builder broken = JobGraph.builder("broken frame");
            JobGraph.Node explodes = broken.job("simulate", Priority.FRAME, () -> { throw new IllegalStateException("physics exploded"); });
            explodes.precedes(broken.parallelFor("cull", Priority.FRAME, 0, 0, 64, (s, e, w) -> { }))
                    .precedes(broken.job("merge", Priority.FRAME, mergeRan::incrementAndGet));
            Counter done = new Counter("frame");
            broken.build().run(jobs, done);
            JobFailedException f = assertThrows(JobFailedException.class, () -> TestSupport.await(done));
            assertEquals(0, mergeRan.get(), "merge ran after a failed simulate");
            Throwable root = f;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            assertEquals("physics exploded", root.getMessage(), "the root cause reaches the run's counter");
            assertTrue(f.getMessage().contains("job 'merge', which it waited on") && !f.getMessage().contains("counter"),
                    "a node is named as a job, not as the counter the graph keeps for it: " + f.getMessage());
        }
    }

    @Test
    void aRunInACancelledGroupRunsNothingAndStillCompletes() {
        try (JobSystem jobs = TestSupport.system(2)) {
            AtomicInteger ran = new AtomicInteger();
            JobGraph.Builder b = JobGraph.builder("g");
            b.job("a", Priority.NORMAL, ran::incrementAndGet).precedes(b.job("b", Priority.NORMAL, ran::incrementAndGet));
            JobGraph g = b.build();
            JobGroup level = jobs.newGroup("level");
            level.cancel();
            Counter done = new Counter("done");
            g.run(level, done);
            TestSupport.await(done);
            assertEquals(0, ran.get());
            assertFalse(done.failure() != null, "cancellation is not a failure");
        }
    }

    /**
     * A frame graph whose first sink is NORMAL (audio) and whose last is FRAME (render), awaited by the main
     * thread while the only worker runs a long loading job: the job that completes the run must be FRAME,
     * so that the waiting main thread runs it (it helps with FRAME jobs only). At the first sink's NORMAL it
     * waited for the loading job to end (here: the loading job gave up after its 30 s wait).
     */
    @Test
    void aRunEndsAtItsMostUrgentSinksPrioritySoTheWaitingMainThreadFinishesTheFrame() {
        try (JobSystem jobs = TestSupport.system(1)) {
            AtomicBoolean gateStarted = new AtomicBoolean();
            AtomicBoolean workerTaken = new AtomicBoolean();
            AtomicBoolean frameDone = new AtomicBoolean();
            AtomicBoolean loadingSawTheFrameEnd = new AtomicBoolean();
            Counter loadingStarted = new Counter("loading started");
            loadingStarted.add(1);
            Job loading = () -> {                     // holds the worker, as a long decompression does
                loadingStarted.decrement();
                loadingSawTheFrameEnd.set(spinUntil(frameDone));
            };
            JobGraph.Builder b = JobGraph.builder("frame");
            b.job("audio", Priority.NORMAL, () -> jobs.run(Priority.BACKGROUND, "loading", loading, null));
            b.job("gate", Priority.FRAME, () -> {     // run by the main thread: the worker is taken meanwhile
                gateStarted.set(true);
                loadingStarted.await();
            }).precedes(b.job("render", Priority.FRAME, () -> { }));
            JobGraph graph = b.build();
            assertEquals("audio", graph.nodes().get(0).name(), "the first sink is the NORMAL one");

            jobs.run(Priority.NORMAL, "previous frame's tail", () -> {
                workerTaken.set(true);
                spinUntil(gateStarted);               // keeps the worker until the main thread took the gate
            }, null);
            assertTrue(spinUntil(workerTaken));
            Counter done = new Counter("frame");
            graph.run(jobs, done);
            done.await();                             // helps: runs gate, render, and the FRAME completion job
            frameDone.set(true);
            TestSupport.closeWithin(jobs);
            assertTrue(loadingSawTheFrameEnd.get(), "the frame ended only after the loading job gave up the"
                    + " worker: the run's completion job was not FRAME, so the waiting main thread could not run it");
        }
    }

    /** Spins (holding the carrier, as a busy job does) until {@code flag} is set; false after the long timeout. */
    private static boolean spinUntil(AtomicBoolean flag) {
        long deadline = System.nanoTime() + TestSupport.LONG.toNanos();
        while (!flag.get()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }
}
