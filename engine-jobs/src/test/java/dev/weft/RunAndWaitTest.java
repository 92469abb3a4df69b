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
}
