package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link JobGraph#run} refused midway by a {@code close()} or {@code shutdownNow()} racing it: the nodes
 * queued before the refusal are counted by {@code done}, and the exception says how many.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class JobGraphRefusalTest {

    @Test
    void aRunRefusedMidwayByCloseStillCountsTheNodesItQueued() throws Exception {
        raceRunsWith(false);
    }

    @Test
    void aRunRefusedMidwayByShutdownNowStillCountsTheNodesItQueued() throws Exception {
        raceRunsWith(true);
    }

    /**
     * Rounds of a 200-node graph run from outside while another thread closes the system, until 20 runs
     * were refused after some of their nodes were queued. After each such refusal, {@code done.await()}
     * must return only once no node runs any more: no node may start after it returned.
     */
    private static void raceRunsWith(boolean shutdownNow) throws Exception {
        int midway = 0;
        for (int round = 0; round < 2_000 && midway < 20; round++) {
            JobSystem jobs = TestSupport.system(2);
            AtomicInteger started = new AtomicInteger();
            AtomicInteger ended = new AtomicInteger();
            JobGraph.Builder b = JobGraph.builder("level");
            JobGraph.Node prev = null;
            for (int i = 0; i < 200; i++) {
                JobGraph.Node n = b.job("n" + i, Priority.NORMAL, () -> {
                    started.incrementAndGet();
                    long until = System.nanoTime() + 20_000;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    ended.incrementAndGet();
                });
                if (prev != null && i % 4 != 0) {
                    prev.precedes(n);
                }
                prev = n;
            }
            JobGraph graph = b.build();
            CountDownLatch go = new CountDownLatch(1);
            Thread closer = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                if (shutdownNow) {
                    jobs.shutdownNow();
                } else {
                    jobs.close();
                }
            });
            closer.start();
            Counter done = new Counter("frame");
            go.countDown();
            for (int spin = round % 64; spin > 0; spin--) {
                Thread.onSpinWait();
            }
            try {
                graph.run(jobs, done);
            } catch (RejectedExecutionException refused) {
                TestSupport.await(done);
                int startedAtDone = started.get();
                int endedAtDone = ended.get();
                closer.join();
                assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated");
                if (started.get() > 0 || refused.getMessage().contains("were queued")) {
                    midway++;
                    assertEquals(startedAtDone, endedAtDone, "round " + round + ": done reached zero while a"
                            + " queued node ran");
                    assertEquals(startedAtDone, started.get(), "round " + round + ": a queued node started"
                            + " after done reached zero");
                    assertTrue(refused.getMessage().contains("graph 'level' refused at "), refused.getMessage());
                    assertTrue(refused.getMessage().contains("were queued"), "a refusal after "
                            + startedAtDone + " nodes started says nodes were queued: " + refused.getMessage());
                }
            }
            closer.join();
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated");
            assertTrue(done.isDone(), "done reached zero");
        }
        assertTrue(midway >= 1, "no run was refused midway in 2,000 rounds: the race was not exercised");
    }

    @Test
    void aRunRefusedAtItsFirstNodeLeavesDoneUnchangedAndSaysSo() {
        JobSystem jobs = TestSupport.system(1);
        jobs.close();
        JobGraph.Builder b = JobGraph.builder("frame");
        b.job("a", Priority.FRAME, () -> { }).precedes(b.job("b", Priority.FRAME, () -> { }));
        Counter done = new Counter("frame 7");
        RejectedExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(
                RejectedExecutionException.class, () -> b.build().run(jobs, done));
        assertTrue(refused.getMessage().startsWith("graph 'frame' refused at node 'a', before any node was queued;"
                + " 'done' is unchanged: "), refused.getMessage());
        assertTrue(done.isDone());
        assertTrue(done.await(Duration.ZERO));
    }
}
