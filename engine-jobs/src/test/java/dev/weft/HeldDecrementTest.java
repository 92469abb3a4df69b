package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Held-back decrements (Worker.holdEnded, SYNCHRONIZATION.md §13): a worker subtracts the jobs of one
 * counter that ended on it in one CAS, later. Safety: zero still means every job ended. Liveness: each
 * flush point is checked by a job that spins (never unmounts, so no other flush point can stand in) while
 * the test waits, with a timeout, for the counter the held decrement belongs to.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HeldDecrementTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @Test
    void zeroMeansEveryJobEndedWithDecrementsHeldBack() throws Exception {
        int rounds = TestSupport.FULL ? 2_000 : 200;
        int jobsPerRound = 500;
        try (JobSystem jobs = TestSupport.system(2)) {
            for (int r = 0; r < rounds; r++) {
                AtomicIntegerArray ended = new AtomicIntegerArray(jobsPerRound);
                Counter c = new Counter("round " + r);
                boolean fromJob = (r & 1) == 0;
                Job spawn = () -> {
                    for (int i = 0; i < jobsPerRound; i++) {
                        int index = i;
                        jobs.run(() -> ended.set(index, 1), c);   // the body's last write
                    }
                };
                if (fromJob) {
                    TestSupport.join(jobs.submit(() -> { spawn.run(); c.await(); return null; }));
                } else {
                    spawn.run();
                    TestSupport.await(c);
                }
                for (int i = 0; i < jobsPerRound; i++) {
                    assertEquals(1, ended.get(i), "round " + r + ": counter at zero before job " + i + " ended");
                }
            }
        }
    }

    @Test
    void aJobOfAnotherCounterFlushesWhatItsWorkerHeldBeforeItStarts() throws Exception {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            Counter first = new Counter("first");
            AtomicBoolean firstRunning = new AtomicBoolean();
            AtomicBoolean spinnerQueued = new AtomicBoolean();
            AtomicBoolean release = new AtomicBoolean();
            jobs.run(Priority.NORMAL, "first", () -> {
                firstRunning.set(true);
                while (!spinnerQueued.get()) {
                    Thread.onSpinWait();          // end only once the spinner is queued behind us
                }
            }, first);
            TestSupport.eventually("the first job runs", firstRunning::get);
            Counter other = new Counter("other");
            jobs.run(Priority.NORMAL, "spinner", () -> {
                while (!release.get()) {
                    Thread.onSpinWait();          // never unmounts: only beforeJob can have flushed
                }
            }, other);
            spinnerQueued.set(true);
            try {
                assertTrue(first.await(PATIENCE), "the first job's decrement was held back while a job of "
                        + "another counter ran on its worker: " + first);
            } finally {
                release.set(true);
            }
            TestSupport.await(other);
        }
    }

    @Test
    void aJoinThatRanTheChildHereHoldsNothingBackWhileTheJoinerGoesOn() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            Counter children = new Counter("children");
            AtomicBoolean release = new AtomicBoolean();
            AtomicBoolean joined = new AtomicBoolean();
            JobHandle<Integer> parent = jobs.submit(() -> {
                JobHandle<Integer> child = jobs.submit(Priority.NORMAL, "child", () -> 7, children);
                int v = child.join();             // at the bottom of our deque: runs right here
                joined.set(true);
                while (!release.get()) {
                    Thread.onSpinWait();          // the joiner goes on without unmounting
                }
                return v;
            });
            try {
                TestSupport.eventually("the parent joined its child", joined::get);
                assertTrue(children.await(PATIENCE), "the child's decrement was held back while its joiner "
                        + "went on: " + children);
            } finally {
                release.set(true);
            }
            assertEquals(7, TestSupport.join(parent));
        }
    }

    /**
     * A nested job that parks outside Weft's waits (Thread.sleep) unmounts its fiber with the decrements
     * of the nested jobs before it still held: only the flush at unmount can subtract them. The job that
     * then runs on the worker is of the same counter (so starting it flushes nothing) and spins until
     * the counter shows only itself and the sleeper.
     */
    @Test
    void decrementsHeldWhenAFiberParksAreSubtractedAtTheUnmount() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            Counter local = new Counter("local");
            AtomicBoolean spinnerSawIt = new AtomicBoolean();
            JobHandle<Void> helper = jobs.submit(() -> {
                jobs.run(Priority.NORMAL, "spinner", () -> {
                    long deadline = System.nanoTime() + PATIENCE.toNanos();
                    while (local.value() > 2 && System.nanoTime() < deadline) {
                        Thread.onSpinWait();      // never unmounts
                    }
                    spinnerSawIt.set(local.value() <= 2);
                }, local);
                jobs.run(Priority.NORMAL, "sleeper", () -> Thread.sleep(50), local);
                jobs.run(Priority.NORMAL, "no-op", () -> { }, local);
                local.await();                    // runs no-op, then sleeper (parks) nested; spinner runs meanwhile
                return null;
            });
            TestSupport.join(helper);
            assertTrue(spinnerSawIt.get(), "the no-op's decrement stayed held while its worker ran the spinner");
        }
    }

    /** A fiber waiting for a target above zero helps only until the target is reached, held decrements counted. */
    @Test
    void aWaitForATargetAboveZeroStopsHelpingAtTheTarget() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            Counter c = new Counter("ten");
            long left = TestSupport.join(jobs.submit(() -> {
                for (int i = 0; i < 10; i++) {
                    jobs.run(() -> { }, c);
                }
                c.await(4);                       // the only worker is ours: we run six, then stop
                return c.value();
            }));
            assertEquals(4, left, "the wait ran more of its counter's jobs than it needed");
            TestSupport.await(c);
        }
    }

    /**
     * Zero still means every job ended when jobs count their children by taking back held decrements:
     * each job of a binary tree submits its two children into the one counter the test waits on, on two
     * workers (a child is often submitted where an earlier job of the counter just ended).
     */
    @Test
    void zeroMeansEveryJobEndedWhenChildrenAreCountedFromHeldDecrements() throws Exception {
        int rounds = TestSupport.FULL ? 2_000 : 200;
        int depth = 9;                                  // 1,023 jobs a round
        try (JobSystem jobs = TestSupport.system(2)) {
            for (int r = 0; r < rounds; r++) {
                AtomicIntegerArray ended = new AtomicIntegerArray(1 << depth);
                Counter tree = new Counter("tree " + r);
                class Node implements Job {
                    final int index;

                    Node(int index) {
                        this.index = index;
                    }

                    @Override
                    public void run() {
                        if (2 * index < ended.length()) {
                            jobs.run(new Node(2 * index), tree);
                            jobs.run(new Node(2 * index + 1), tree);
                        }
                        ended.set(index, 1);            // the body's last write
                    }
                }
                jobs.run(new Node(1), tree);
                TestSupport.await(tree);
                for (int i = 1; i < ended.length(); i++) {
                    assertEquals(1, ended.get(i), "round " + r + ": counter at zero before job " + i + " ended");
                }
            }
        }
    }

    /**
     * A job of a counter submitted on a worker that holds decrements of that counter takes one back
     * instead of adding (§13, "Taking a held decrement back"): a chain of 2,000 jobs, each submitting the
     * next into the same counter, on one worker, and a parallelFor's ranges. Every job runs once, the
     * counter reaches zero, and it saw almost no add: its add-epoch counts the adds. Fails with the take-back
     * removed (one add per job).
     */
    @Test
    void aJobSubmittedWhereItsCountersDecrementsAreHeldTakesOneBackInsteadOfAdding() throws Exception {
        try (JobSystem jobs = JobSystem.builder().workers(1).build()) {
            Counter chain = new Counter("chain");
            int length = 2_000;
            AtomicIntegerArray ran = new AtomicIntegerArray(length);
            jobs.run(new Job() {
                int next;

                @Override
                public void run() {
                    int k = next++;                    // one worker: the jobs run one after another
                    ran.incrementAndGet(k);
                    if (k + 1 < length) {
                        jobs.run(this, chain);
                    }
                }
            }, chain);
            assertTrue(chain.await(PATIENCE), "the chain's counter should reach zero");
            for (int k = 0; k < length; k++) {
                assertEquals(1, ran.get(k), "job " + k);
            }
            assertTrue(chain.addEpoch() < 100, "adds: " + chain.addEpoch() + " for " + length + " jobs");

            Counter ranges = new Counter("ranges");
            AtomicIntegerArray covered = new AtomicIntegerArray(1 << 14);
            ranges.add(1);                             // until the job below has submitted the parallelFor
            jobs.run(() -> {
                jobs.parallelFor(Priority.NORMAL, 0, 1 << 14, 16, (s, e, w) -> {
                    for (int i = s; i < e; i++) {
                        covered.incrementAndGet(i);
                    }
                }, ranges);
                ranges.decrement();
            });
            assertTrue(ranges.await(PATIENCE), "the parallelFor's counter should reach zero");
            for (int i = 0; i < covered.length(); i++) {
                assertEquals(1, covered.get(i), "index " + i);
            }
            assertTrue(ranges.addEpoch() < 100, "adds: " + ranges.addEpoch() + " for 1,024 ranges");
        }
    }
}
