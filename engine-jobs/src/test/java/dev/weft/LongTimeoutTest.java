package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * "No limit" spelt as a very long Duration ({@code ChronoUnit.FOREVER.getDuration()},
 * {@code Duration.ofMillis(Long.MAX_VALUE)}): {@code Duration.toNanos()} throws past about 292 years, and
 * every call below threw {@code ArithmeticException}: a wait on a counter at zero, {@code build()} after its
 * workers had started (leaking them), and a worker whose fiber pool ran dry (it died with its jobs).
 */
class LongTimeoutTest {
    private static final Duration HANG = Duration.ofSeconds(60);
    private static final List<Duration> FOREVERS = List.of(ChronoUnit.FOREVER.getDuration(),
            Duration.ofMillis(Long.MAX_VALUE), Duration.ofDays(1_000_000));

    @Test
    void waitsTakeAVeryLongTimeoutAsNoLimit() throws Exception {
        try (JobSystem jobs = JobSystem.builder().workers(2).build()) {
            for (Duration forever : FOREVERS) {
                Counter done = new Counter("done");
                assertTrue(done.await(forever), forever.toString());
                assertTrue(done.await(0, forever), forever.toString());
                JobHandle<Integer> slow = jobs.submit(() -> {
                    Thread.sleep(20);
                    return 7;
                });
                assertEquals(7, assertTimeoutPreemptively(HANG, () -> slow.join(forever)), forever.toString());
                Counter inJob = new Counter("in a job");
                inJob.add(1);
                JobHandle<Boolean> waiter = jobs.submit(() -> inJob.await(forever));
                inJob.decrement();
                assertTrue(assertTimeoutPreemptively(HANG, () -> waiter.join()), forever.toString());
            }
            jobs.shutdown();
            assertTrue(jobs.awaitTermination(ChronoUnit.FOREVER.getDuration()));
        }
    }

    @Test
    void aWatchdogThatNeverFiresBuildsAndCloses() {
        for (Duration forever : FOREVERS) {
            try (JobSystem jobs = JobSystem.builder().workers(1).name("forever-watchdog")
                    .watchdog(forever, report -> { }).build()) {
                assertEquals(3, assertTimeoutPreemptively(HANG, () -> jobs.submit(() -> 3).join()));
            }
        }
    }

    @Test
    void aPoolBoundedWithNoExhaustionLimitRunsEveryJobOnceFibersFree() {
        try (JobSystem jobs = JobSystem.builder().workers(1)
                .fiberPool(FiberPoolPolicy.bounded(2, ChronoUnit.FOREVER.getDuration())).build()) {
            Counter gate = new Counter("gate");
            gate.add(1);
            Counter all = new Counter("all");
            for (int i = 0; i < 4; i++) {
                jobs.run(Priority.NORMAL, "waits on the gate", () -> gate.await(), all);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);   // the pool runs dry meanwhile
            gate.decrement();
            assertTrue(assertTimeoutPreemptively(HANG, () -> all.await(Duration.ofSeconds(30))),
                    "4 jobs waiting on a gate with 2 fibers: " + all.value() + " never ended");
        }
    }

    @Test
    void nullTimeoutsSayWhatToPass() {
        JobSystemBuilder builder = JobSystem.builder();
        assertTrue(assertThrows(NullPointerException.class, () -> builder.watchdog(null)).getMessage()
                .contains("watchdog threshold is null: pass"));
        assertTrue(assertThrows(NullPointerException.class, () -> FiberPoolPolicy.bounded(2, null)).getMessage()
                .contains("exhaustionTimeout is null: pass"));
        assertTrue(assertThrows(NullPointerException.class, () -> Jobs.blocking(null)).getMessage()
                .contains("call is null: pass"));
        try (JobSystem jobs = JobSystem.builder().workers(1).build()) {
            assertTrue(assertThrows(NullPointerException.class, () -> jobs.awaitTermination(null)).getMessage()
                    .contains("timeout is null: pass"));
        }
    }
}
