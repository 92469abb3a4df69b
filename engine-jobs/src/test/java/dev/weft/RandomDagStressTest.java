package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random job graphs: every job waits (inside the job, parking its fiber) on the counters of up to four
 * earlier jobs, some spawn children and wait for them, some fail, and submission order is shuffled in
 * windows so many jobs wait on work not submitted yet. Checks: every job runs exactly once, no job starts
 * before everything it waits on has finished, every counter ends at zero, nothing is left parked.
 * CI: 100k jobs (+ children) per worker count; -Dweft.stress=full: 1M jobs, 5 rounds.
 */
@Timeout(600)
class RandomDagStressTest {
    private static final int JOBS = TestSupport.FULL ? 1_000_000 : 100_000;
    private static final int ROUNDS = TestSupport.FULL ? 5 : 1;

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4, 8})
    void randomDagsRunEveryJobOnceAndInOrder(int workers) {
        for (int round = 0; round < ROUNDS; round++) {
            runOnce(workers, 0x5EED_0000L + round * 31L + workers);
        }
    }

    private static void runOnce(int workers, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int n = JOBS;
        int[][] deps = new int[n][];
        boolean[] spawns = new boolean[n];
        boolean[] fails = new boolean[n];
        for (int i = 0; i < n; i++) {
            int k = i == 0 ? 0 : rnd.nextInt(5);
            deps[i] = new int[k];
            for (int d = 0; d < k; d++) {
                deps[i][d] = i - 1 - rnd.nextInt(Math.min(i, 256));   // earlier jobs, mostly near
            }
            spawns[i] = rnd.nextInt(10) == 0;
            fails[i] = rnd.nextInt(500) == 0;
        }
        Counter[] finished = new Counter[n];
        for (int i = 0; i < n; i++) {
            finished[i] = new Counter("job" + i);
            finished[i].add(1);
        }
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicIntegerArray done = new AtomicIntegerArray(n);
        AtomicInteger orderViolations = new AtomicInteger();
        AtomicInteger childRuns = new AtomicInteger();
        AtomicInteger expectedChildren = new AtomicInteger();
        AtomicInteger failuresSeen = new AtomicInteger();
        Counter all = new Counter("all");
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int w = 0; w < n; w += 64) {                     // shuffle within windows of 64
            int end = Math.min(n, w + 64);
            for (int i = end - 1; i > w; i--) {
                int j = w + rnd.nextInt(i - w + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        try (JobSystem jobs = TestSupport.system(workers)) {
            for (int idx = 0; idx < n; idx++) {
                int i = order[idx];
                jobs.run(Priority.VALUES[i % 3], null, () -> {
                    try {
                        for (int d : deps[i]) {
                            finished[d].await();               // parks until d has finished
                            if (done.get(d) != 1) {
                                orderViolations.incrementAndGet();
                            }
                        }
                        runs.incrementAndGet(i);
                        if (spawns[i]) {
                            Counter kids = new Counter();
                            int count = 2 + (i % 3);
                            expectedChildren.addAndGet(count);
                            for (int c = 0; c < count; c++) {
                                jobs.run(childRuns::incrementAndGet, kids);
                            }
                            kids.await();
                        }
                        if (fails[i]) {
                            throw new IllegalStateException("injected failure in job " + i);
                        }
                    } finally {
                        done.set(i, 1);
                        finished[i].decrement();
                    }
                }, all);
            }
            try {
                TestSupport.await(all);
            } catch (JobFailedException expected) {
                failuresSeen.incrementAndGet();
            }
            JobFailedException f = all.failure();
            int injected = 0;
            for (boolean b : fails) {
                injected += b ? 1 : 0;
            }
            assertEquals(injected > 0, f != null, "the failures reached the waiter");
            if (f != null) {
                assertEquals(injected, 1 + f.getSuppressed().length + f.failuresNotKept(), "every failure was recorded");
            }
            for (int i = 0; i < n; i++) {
                assertEquals(1, runs.get(i), "job " + i + " ran exactly once");
                assertEquals(0, finished[i].value(), "counter of job " + i);
            }
            assertEquals(0, orderViolations.get(), "a job started before a job it waits on finished");
            assertEquals(expectedChildren.get(), childRuns.get());
            assertEquals(0, all.value());
            JobSystemStats s = jobs.stats();
            assertEquals(0, s.fibersParked());
            System.out.printf("random DAG, %d workers: %d jobs + %d children, %d waits parked a fiber, "
                            + "%d fibers, %d steals%n", workers, n, childRuns.get(), s.waits(), s.fibersCreated(),
                    s.steals());
            assertTrue(s.jobsRun() >= n);
        }
    }
}
