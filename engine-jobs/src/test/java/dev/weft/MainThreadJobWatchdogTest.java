package dev.weft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A main-thread job that holds the main thread (a wait on a counter the game loop itself completes after
 * runMainThreadJobs returns, so never; or a long upload) freezes the game's frame. The watchdog watched
 * fibers, helped FRAME jobs and main-thread jobs nobody runs, not the main thread inside a main-thread
 * job: a probe's loop stood 1.5 s in such a wait with a 100 ms watchdog and got no report.
 */
@Timeout(120)
class MainThreadJobWatchdogTest {

    @Test
    void aMainThreadJobHoldingTheMainThreadIsReported() {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        JobSystem jobs = JobSystem.builder().name("main-held").workers(1)
                .watchdog(Duration.ofMillis(50), reports::add).build();
        try {
            jobs.bindMainThread();
            Counter frameEnd = new Counter("frame end");
            frameEnd.add(1);
            JobHandle<Boolean> upload = jobs.onMainThread("upload", () -> {
                // Waits for what the loop does after this frame's main-thread jobs: until the watchdog has
                // said so, or the test's timeout (then frame end is still 1: the old code's failure).
                long end = System.nanoTime() + TestSupport.LONG.toNanos();
                while (!reported(reports) && System.nanoTime() < end) {
                    frameEnd.await(Duration.ofMillis(10));
                }
                return reported(reports);
            });
            jobs.runMainThreadJobs(2_000_000);
            assertTrue(upload.isDone(), "ran on this thread");
            assertTrue(reported(reports), "a report for the held main thread: " + reports);
            WatchdogReport r = reports.stream().filter(x -> x.jobName().equals("upload")).findFirst().orElseThrow();
            assertTrue(r.detail().contains("main-thread job 'upload' has held the main thread ("
                    + Thread.currentThread().getName() + ")"), r.detail());
            assertTrue(r.stack().stream().anyMatch(f -> f.getClassName().endsWith("MainThreadJobWatchdogTest")
                    || f.getClassName().contains("MainThreadJobWatchdogTest$")), "the main thread's stack: " + r.stack());
        } finally {
            jobs.shutdownNow();
        }
    }

    private static boolean reported(List<WatchdogReport> reports) {
        return reports.stream().anyMatch(r -> r.kind() == WatchdogReport.Kind.BLOCKED_WORKER
                && r.jobName().equals("upload"));
    }
}
