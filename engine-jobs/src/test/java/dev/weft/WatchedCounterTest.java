package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A counter whose values are read between start and zero (a wait for a target above zero, a progress
 * display polling {@link Counter#value()}) sees each job of it end when it ends: its workers hold none of
 * its decrements back (SYNCHRONIZATION.md §13). Before, one worker running ten jobs of a counter in a row
 * held the first one's decrement while the second ran: {@code await(9)} waited for the second job too, and
 * a probe's {@code await(190)} over 200 jobs of 3 ms on 2 workers returned only after 124 had ended, with
 * {@code value()} showing up to 123 ended jobs as pending. Each test's second job spins until the test ends
 * (it never unmounts, so no other flush point stands in), and only a decrement of the first job subtracted
 * at its end lets the test through.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WatchedCounterTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @Test
    void aWaitForATargetAboveZeroSeesAJobEndWhileItsWorkerRunsTheNextOne() throws Exception {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            Counter c = new Counter("loads");
            AtomicBoolean releaseFirst = new AtomicBoolean();
            AtomicBoolean secondRunning = new AtomicBoolean();
            AtomicBoolean releaseSecond = new AtomicBoolean();
            spinners(jobs, c, releaseFirst, secondRunning, releaseSecond);
            AtomicInteger waitResult = new AtomicInteger(-1);
            Thread waiter = new Thread(() -> waitResult.set(c.await(1, PATIENCE) ? 1 : 0), "waits for 1 left");
            waiter.start();
            try {
                TestSupport.eventually("the wait for 1 left registers", () -> c.watched);
                releaseFirst.set(true);
                waiter.join();
                assertEquals(1, waitResult.get(), "await(1) did not see the first job end while its worker ran "
                        + "the second: its decrement was held back; " + c);
            } finally {
                releaseFirst.set(true);
                releaseSecond.set(true);
            }
            TestSupport.await(c);
        }
    }

    @Test
    void valuePolledForProgressCountsAJobAsEndedWhenItEnds() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            Counter c = new Counter("loads");
            AtomicBoolean releaseFirst = new AtomicBoolean();
            AtomicBoolean secondRunning = new AtomicBoolean();
            AtomicBoolean releaseSecond = new AtomicBoolean();
            spinners(jobs, c, releaseFirst, secondRunning, releaseSecond);
            try {
                assertEquals(2, c.value(), "both loads are pending before the first is released");
                assertTrue(!secondRunning.get(), "the second job started before the first");
                releaseFirst.set(true);
                TestSupport.eventually("the second job runs", secondRunning::get);
                long deadline = System.nanoTime() + PATIENCE.toNanos();
                while (c.value() > 1 && System.nanoTime() - deadline < 0) {
                    Thread.onSpinWait();
                }
                assertEquals(1, c.value(), "value() still counted the first job, which had ended, as pending "
                        + "while its worker ran the second");
            } finally {
                releaseFirst.set(true);
                releaseSecond.set(true);
            }
            TestSupport.await(c);
        }
    }

    /**
     * The counter becomes watched while its worker already holds a decrement of it (the first job ended
     * before anyone read the value): the worker sees the watch epoch move when its next job of the counter
     * ends, and subtracts both, though it read the counter's own flag false when its batch began.
     */
    @Test
    void aCounterWatchedWhileItsWorkerHoldsADecrementIsFlushedAtTheNextJobsEnd() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            Counter c = new Counter("loads");
            AtomicBoolean secondRunning = new AtomicBoolean();
            AtomicBoolean watchedNow = new AtomicBoolean();
            AtomicBoolean thirdRunning = new AtomicBoolean();
            AtomicBoolean releaseThird = new AtomicBoolean();
            jobs.run(() -> {
                jobs.run(Priority.NORMAL, "third", () -> {        // pushed first: runs last
                    thirdRunning.set(true);
                    while (!releaseThird.get()) {
                        Thread.onSpinWait();                      // never unmounts: no other flush point
                    }
                }, c);
                jobs.run(Priority.NORMAL, "second", () -> {
                    secondRunning.set(true);                      // the first ended: its decrement is held
                    while (!watchedNow.get()) {
                        Thread.onSpinWait();
                    }
                }, c);
                jobs.run(Priority.NORMAL, "first", () -> { }, c);
            });
            try {
                TestSupport.eventually("the second job runs", secondRunning::get);
                c.value();                                        // watched from here on
                watchedNow.set(true);
                TestSupport.eventually("the third job runs", thirdRunning::get);
                long deadline = System.nanoTime() + PATIENCE.toNanos();
                while (c.value() > 1 && System.nanoTime() - deadline < 0) {
                    Thread.onSpinWait();
                }
                assertEquals(1, c.value(), "the first two jobs had ended, but their worker still held their"
                        + " decrements while it ran the third");
            } finally {
                watchedNow.set(true);
                releaseThird.set(true);
            }
            TestSupport.await(c);
        }
    }

    /**
     * Two jobs of {@code c} on the one worker, the first to run first (pushed last: the owner pops its own
     * jobs newest first), each spinning until released; returns once both are counted.
     */
    private static void spinners(JobSystem jobs, Counter c, AtomicBoolean releaseFirst, AtomicBoolean secondRunning,
                                 AtomicBoolean releaseSecond) {
        jobs.run(() -> {
            jobs.run(Priority.NORMAL, "second", () -> {
                secondRunning.set(true);
                while (!releaseSecond.get()) {
                    Thread.onSpinWait();          // never unmounts: only a flush at the first job's end helps
                }
            }, c);
            jobs.run(Priority.NORMAL, "first", () -> {
                while (!releaseFirst.get()) {
                    Thread.onSpinWait();
                }
            }, c);
        });
        TestSupport.eventually("both jobs are counted", () -> c.pending() == 2);
    }
}
