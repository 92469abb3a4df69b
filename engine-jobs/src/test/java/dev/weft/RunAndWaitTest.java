package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link JobSystem#runAndWait}: the explicit fork/join call (the first job on the spot, the rest as jobs). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunAndWaitTest {

    private static int fib(JobSystem jobs, int n) {
        if (n < 2) {
            return n;
        }
        int[] r = new int[2];
        jobs.runAndWait(() -> r[0] = fib(jobs, n - 1), () -> r[1] = fib(jobs, n - 2));
        return r[0] + r[1];
    }

    @Test
    void recursiveForkJoinComputesTheRightResult() {
        try (JobSystem jobs = TestSupport.system(2)) {
            assertEquals(6765, TestSupport.join(jobs.submit(() -> fib(jobs, 20))));
            assertEquals(610, fib(jobs, 15));                         // from outside the workers too
        }
    }

    @Test
    void theFirstJobRunsOnTheCallingThreadAndEveryOtherRunsOnce() {
        try (JobSystem jobs = TestSupport.system(2)) {
            AtomicReference<Thread> firstRanOn = new AtomicReference<>();
            AtomicInteger others = new AtomicInteger();
            Thread caller = TestSupport.join(jobs.submit(() -> {
                jobs.runAndWait(Priority.FRAME, () -> firstRanOn.set(Thread.currentThread()),
                        others::incrementAndGet, others::incrementAndGet, others::incrementAndGet);
                assertEquals(3, others.get(), "runAndWait returned before every job ended");
                return Thread.currentThread();
            }));
            assertSame(caller, firstRanOn.get());
        }
    }

    @Test
    void theFirstJobsFailureIsThrownAfterTheOthersEndedWithTheirFailureSuppressed() {
        try (JobSystem jobs = TestSupport.system(2)) {
            AtomicInteger ended = new AtomicInteger();
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> jobs.runAndWait(
                    () -> { throw new IllegalStateException("first"); },
                    () -> { Thread.sleep(50); ended.incrementAndGet(); },
                    () -> { ended.incrementAndGet(); throw new IllegalArgumentException("other"); }));
            assertEquals("first", thrown.getMessage());
            assertEquals(2, ended.get(), "the call must not return before the other jobs ended");
            assertEquals(1, thrown.getSuppressed().length);
            JobFailedException other = assertInstanceOf(JobFailedException.class, thrown.getSuppressed()[0]);
            assertInstanceOf(IllegalArgumentException.class, other.getCause());
        }
    }

    @Test
    void anotherJobsFailureIsAJobFailedException() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            JobHandle<Void> h = jobs.submit(() -> {
                jobs.runAndWait(() -> { }, () -> { throw new java.io.IOException("disk"); });
                return null;
            });
            JobFailedException outer = assertThrows(JobFailedException.class, h::join);
            Throwable inner = outer.getCause();
            assertInstanceOf(JobFailedException.class, inner);
            assertInstanceOf(java.io.IOException.class, inner.getCause());
        }
    }

    @Test
    void aNullJobIsRefusedBeforeAnythingRuns() {
        try (JobSystem jobs = TestSupport.system(1)) {
            AtomicInteger ran = new AtomicInteger();
            NullPointerException e = assertThrows(NullPointerException.class,
                    () -> jobs.runAndWait(ran::incrementAndGet, null, ran::incrementAndGet));
            assertTrue(e.getMessage().contains("null"), e.getMessage());
            assertThrows(NullPointerException.class, () -> jobs.runAndWait((Job[]) null));
            jobs.runAndWait();                                        // no jobs: nothing to do
            assertEquals(0, ran.get());
        }
    }

    @Test
    void fromOutsideTheWorkersEveryJobIsCountedOnce() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            AtomicInteger ran = new AtomicInteger();
            Thread caller = Thread.ofPlatform().daemon().start(
                    () -> jobs.runAndWait(ran::incrementAndGet, ran::incrementAndGet, ran::incrementAndGet));
            caller.join(java.time.Duration.ofSeconds(30));
            assertTrue(!caller.isAlive(), "runAndWait from a plain thread never returned: its counter counted "
                    + "a job twice (born holding them, then added to as each was admitted)");
            assertEquals(3, ran.get());
        }
    }

    @Test
    void fromAJobAfterShutdownNowNothingRunsAndTheCallIsRefused() throws Exception {
        JobSystem jobs = TestSupport.system(2);
        var started = new java.util.concurrent.atomic.AtomicBoolean();
        var stopped = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger ran = new AtomicInteger();
        JobHandle<Throwable> h = jobs.submit(() -> {
            started.set(true);
            spinUntil(stopped, "the test thread called shutdownNow");
            try {
                jobs.runAndWait(ran::incrementAndGet, ran::incrementAndGet);
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        spinUntil(started, "the job started");
        jobs.shutdownNow();
        stopped.set(true);
        Throwable refused = TestSupport.join(h);
        assertInstanceOf(java.util.concurrent.RejectedExecutionException.class, refused);
        assertEquals(0, ran.get(), "a refused runAndWait must run none of its jobs");
        TestSupport.closeWithin(jobs);
    }

    // From a job, the queued jobs' counter is born holding them (BatchSubmission.forkRest). The next two tests
    // mix the two ways they end: one runs inline on the caller's worker, another is stolen. Both failed
    // against a shortcut that returned without flushing when the caller's worker held every unit left.

    @Test
    void aStolenJobIsWaitedForThoughTheOtherRanHere() {
        try (JobSystem jobs = TestSupport.system(2)) {
            for (int round = 0; round < 20; round++) {
                var bStarted = new java.util.concurrent.atomic.AtomicBoolean();
                boolean[] ended = new boolean[3];
                TestSupport.join(jobs.submit(() -> {
                    jobs.runAndWait(
                            () -> { spinUntil(bStarted, "another worker stole b"); ended[0] = true; },   // b can only start elsewhere
                            () -> { bStarted.set(true); Thread.sleep(20); ended[1] = true; },
                            () -> ended[2] = true);                             // the bottom one: runs here
                    assertTrue(ended[1], "runAndWait returned while the stolen job was still running");
                    assertTrue(ended[0] && ended[2]);
                    return null;
                }));
            }
        }
    }

    @Test
    void aStolenJobsFailureIsThrownThoughTheOtherRanHere() {
        try (JobSystem jobs = TestSupport.system(2)) {
            for (int round = 0; round < 10; round++) {
                var bStarted = new java.util.concurrent.atomic.AtomicBoolean();
                var release = new java.util.concurrent.atomic.AtomicBoolean();
                Counter busy = new Counter("keeps the thief busy");
                JobHandle<Void> h = jobs.submit(() -> {
                    try {
                        jobs.runAndWait(
                                () -> { spinUntil(bStarted, "another worker stole b"); spin(30); },   // b has failed by then
                                () -> {
                                    bStarted.set(true);
                                    // Keep the thief on its own deque, so the last job stays for this one.
                                    jobs.run(Priority.FRAME, "busy", () -> spinUntil(release, "the runAndWait ended"), busy);
                                    throw new java.io.IOException("stolen");
                                },
                                () -> { });
                    } finally {
                        release.set(true);
                    }
                    return null;
                });
                JobFailedException outer = assertThrows(JobFailedException.class, () -> TestSupport.join(h),
                        "the stolen job's failure was lost");
                assertInstanceOf(java.io.IOException.class, rootCause(outer));
                TestSupport.await(busy);
            }
        }
    }

    /** Spins (no park: the caller stays on its worker) until {@code flag} is set, failing after 10 s. */
    private static void spinUntil(java.util.concurrent.atomic.AtomicBoolean flag, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!flag.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.onSpinWait();
        }
    }

    private static void spin(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
