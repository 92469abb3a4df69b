package dev.weft;

import static dev.weft.TestSupport.system;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A timed wait on the bound main thread runs queued main-thread jobs while it waits, one at a time, and
 * stops running them once its timeout has passed: it overruns by at most the job in hand. It ran every
 * queued one before it looked at its deadline again, so a frame loop's {@code frame.await(10 ms)} with
 * three 300 ms uploads queued returned after 900 ms (probe, 2026-12-07), and {@code await(Duration.ZERO)},
 * a poll, ran the whole queue. {@code awaitTermination} did the same (probe, 2026-12-07).
 */
@Timeout(60)
class TimedWaitOnMainThreadTest {
    private static final Duration TIMEOUT = Duration.ofMillis(200);
    private static final long FIRST_JOB_SLEEP_MILLIS = 600;    // past the timeout whatever the machine does

    /** Three uploads; the first sleeps past the wait's timeout, so none after it may run inside the wait. */
    private static void postUploads(JobSystem jobs, AtomicInteger ran) {
        jobs.onMainThread("slow upload", () -> {
            ran.incrementAndGet();
            Thread.sleep(FIRST_JOB_SLEEP_MILLIS);
            return 0;
        });
        for (int i = 0; i < 2; i++) {
            jobs.onMainThread("upload " + i, () -> ran.incrementAndGet());
        }
    }

    @Test
    void aTimedCounterWaitStopsRunningMainThreadJobsAtItsTimeout() {
        try (JobSystem jobs = system(2)) {
            jobs.bindMainThread();
            Counter never = new Counter("never");
            never.add(1);
            AtomicInteger ran = new AtomicInteger();
            postUploads(jobs, ran);
            assertFalse(never.await(TIMEOUT), "nothing decrements the counter");
            // The slow upload, or none if the thread came late to its first check; not the two after it
            // (3 on the old code).
            assertTrue(ran.get() <= 1, "main-thread jobs run inside a timed wait past its timeout: " + ran.get());
            jobs.runMainThreadJobs(Long.MAX_VALUE);
            assertEquals(3, ran.get(), "the rest wait for the frame's budget");
            never.decrement();
        }
    }

    @Test
    void aTimedJoinStopsRunningMainThreadJobsAtItsTimeout() {
        try (JobSystem jobs = system(2)) {
            jobs.bindMainThread();
            CountDownLatch release = new CountDownLatch(1);
            JobHandle<Integer> stuck = jobs.submit(Priority.NORMAL, "stuck", () -> {
                release.await();
                return 1;
            });
            try {
                AtomicInteger ran = new AtomicInteger();
                postUploads(jobs, ran);
                assertThrows(TimeoutException.class, () -> stuck.join(TIMEOUT));
                assertTrue(ran.get() <= 1, "main-thread jobs run inside a timed join past its timeout: " + ran.get());
                jobs.runMainThreadJobs(Long.MAX_VALUE);
                assertEquals(3, ran.get(), "the rest wait for the frame's budget");
            } finally {
                release.countDown();                   // or close() would wait for ever on a failure
            }
        }
    }

    @Test
    void aZeroTimeoutWaitRunsNoMainThreadJob() {
        try (JobSystem jobs = system(2)) {
            jobs.bindMainThread();
            Counter never = new Counter("never");
            never.add(1);
            AtomicInteger ran = new AtomicInteger();
            for (int i = 0; i < 3; i++) {
                jobs.onMainThread("upload " + i, () -> ran.incrementAndGet());
            }
            assertFalse(never.await(Duration.ZERO), "a poll");
            assertEquals(0, ran.get(), "a zero-timeout wait is a poll: it runs no main-thread job");
            jobs.runMainThreadJobs(Long.MAX_VALUE);
            assertEquals(3, ran.get());
            never.decrement();
        }
    }

    @Test
    void aTimedTerminationWaitStopsRunningMainThreadJobsAtItsTimeout() throws Exception {
        try (JobSystem jobs = system(2)) {
            jobs.bindMainThread();
            CountDownLatch release = new CountDownLatch(1);
            jobs.run(Priority.NORMAL, "holds termination", () -> release.await(), new Counter("held"));
            try {
                AtomicInteger ran = new AtomicInteger();
                postUploads(jobs, ran);
                jobs.shutdown();
                assertFalse(jobs.awaitTermination(TIMEOUT), "a job still runs");
                // The slow upload at most (3 on the old code).
                assertTrue(ran.get() <= 1, "main-thread jobs run inside awaitTermination past its timeout: " + ran.get());
                int before = ran.get();
                assertFalse(jobs.awaitTermination(Duration.ZERO), "a job still runs");
                assertEquals(before, ran.get(), "awaitTermination(ZERO) is a poll: it runs no main-thread job");
            } finally {
                release.countDown();
            }
        }                                                   // close() runs or cancels the rest
    }
}
