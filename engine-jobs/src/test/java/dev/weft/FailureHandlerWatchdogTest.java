package dev.weft;

import static dev.weft.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The uncaught-failure handler runs on the worker that ran the failed job, after the job ended: a logger
 * blocked writing to a full pipe holds that worker, one parked on a lock holds close(). The watchdog saw
 * neither (it sampled the fiber's current job, null by then): a probe whose handler held each worker for
 * 2 s (20 failures, 2 workers) stalled a 60 Hz loop for 20 s with no report. It now names the handler and
 * the job whose failure it reports.
 */
@Timeout(120)
class FailureHandlerWatchdogTest {

    @Test
    void aHandlerHoldingItsWorkerIsReported() {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        JobSystem jobs = JobSystem.builder().name("handler-holds").workers(2)
                .watchdog(Duration.ofMillis(50), reports::add)
                .onUncaughtFailure((job, failure) -> {
                    // A write blocked in native code: the fiber cannot unmount. Until the watchdog has said so
                    // (at most the test timeout), so no machine is too slow for its samples to span the threshold.
                    long end = System.nanoTime() + TestSupport.LONG.toNanos();
                    while (!reported(reports, WatchdogReport.Kind.BLOCKED_WORKER) && System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                }).build();
        try {
            jobs.run(Priority.NORMAL, "fails", () -> { throw new IllegalStateException("boom"); }, null);
            eventually(() -> "a BLOCKED_WORKER report naming the handler; reports " + reports,
                    () -> reported(reports, WatchdogReport.Kind.BLOCKED_WORKER));
            WatchdogReport r = find(reports, WatchdogReport.Kind.BLOCKED_WORKER);
            assertTrue(r.detail().contains("uncaught-failure handler") && r.detail().contains("'fails'"), r.detail());
        } finally {
            jobs.shutdownNow();
        }
    }

    @Test
    void aHandlerParkedOnALockIsReported() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        CountDownLatch logger = new CountDownLatch(1);
        JobSystem jobs = JobSystem.builder().name("handler-parks").workers(2)
                .watchdog(Duration.ofMillis(50), reports::add)
                .onUncaughtFailure((job, failure) -> {
                    try {
                        logger.await();                                   // a logger's lock, held elsewhere
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }).build();
        try {
            jobs.run(Priority.NORMAL, "fails", () -> { throw new IllegalStateException("boom"); }, null);
            eventually(() -> "a LONG_WAIT report naming the handler; reports " + reports,
                    () -> reported(reports, WatchdogReport.Kind.LONG_WAIT));
            WatchdogReport r = find(reports, WatchdogReport.Kind.LONG_WAIT);
            assertTrue(r.detail().contains("uncaught-failure handler") && r.detail().contains("'fails'")
                    && r.detail().contains("close()"), r.detail());
        } finally {
            logger.countDown();
            jobs.close();
        }
    }

    private static boolean reported(List<WatchdogReport> reports, WatchdogReport.Kind kind) {
        return reports.stream().anyMatch(r -> r.kind() == kind && r.jobName().equals("fails"));
    }

    private static WatchdogReport find(List<WatchdogReport> reports, WatchdogReport.Kind kind) {
        return reports.stream().filter(r -> r.kind() == kind && r.jobName().equals("fails")).findFirst().orElseThrow();
    }
}
