package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * close() racing jobs injected from outside threads just before it: every job whose submission was
 * accepted runs exactly once (none cancelled at its start by a premature termination, none stranded),
 * and awaitTermination returns true only after all of them and their children ran. The jobs submit a
 * child from inside and wait for it, or sleep, so fibers park while the system is closing. Workers
 * park at once when idle in half the rounds (backoff(0, 0)), so the last-worker termination check runs
 * often while other workers wake up and take the last injected jobs.
 * CI: 150 rounds per worker count; -Dweft.stress=full: 5000.
 */
@Timeout(600)
class TerminationRaceTest {
    private static final int ROUNDS = TestSupport.FULL ? 5000 : 150;
    private static final int SUBMITTERS = 2;
    private static final int MAX_PER_SUBMITTER = 2048;

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {2, 3})
    void everyJobAcceptedBeforeCloseRunsOnce(int workers) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            runRound(workers, new SplittableRandom(0x7E57_0000L + 131L * round + workers), round);
        }
    }

    private static void runRound(int workers, SplittableRandom rnd, int round) throws Exception {
        JobSystem jobs = JobSystem.builder().name("termination-race").workers(workers)
                .idleStrategy(round % 2 == 0 ? IdleStrategy.backoff(0, 0) : IdleStrategy.backoff()).build();
        int capacity = SUBMITTERS * MAX_PER_SUBMITTER;
        AtomicIntegerArray runs = new AtomicIntegerArray(capacity);
        AtomicIntegerArray childRuns = new AtomicIntegerArray(capacity);
        ConcurrentLinkedQueue<JobHandle<Integer>> accepted = new ConcurrentLinkedQueue<>();
        CountDownLatch go = new CountDownLatch(1);
        Thread[] submitters = new Thread[SUBMITTERS];
        for (int s = 0; s < SUBMITTERS; s++) {
            int first = s * MAX_PER_SUBMITTER;
            long seed = rnd.nextLong();
            submitters[s] = new Thread(() -> submitUntilRefused(jobs, go, first, new SplittableRandom(seed),
                    runs, childRuns, accepted), "submitter-" + s);
            submitters[s].start();
        }
        int closeDelaySpins = rnd.nextInt(20_000);
        go.countDown();
        for (int i = 0; i < closeDelaySpins; i++) {
            Thread.onSpinWait();
        }
        jobs.shutdown();
        assertTrue(jobs.awaitTermination(TestSupport.LONG), () -> "round " + round + ": no termination\n"
                + FiberDumps.of(jobs) + TestSupport.threadDump());
        for (Thread t : submitters) {
            t.join();
        }
        for (JobHandle<Integer> h : accepted) {
            int id = h.getNow(-1);
            assertTrue(h.isDone() && !h.isCancelled() && id >= 0, () -> "round " + round + ": " + h
                    + " was accepted before close() but did not run (cancelled or stranded) on " + workers
                    + " workers");
            assertEquals(1, runs.get(id), () -> "round " + round + ": job " + id + " runs");
            assertEquals(id % 3 == 0 ? 1 : 0, childRuns.get(id), () -> "round " + round + ": child of " + id);
        }
    }

    /** Submits jobs from outside until close() refuses one (or the cap is reached), pausing at random. */
    private static void submitUntilRefused(JobSystem jobs, CountDownLatch go, int first, SplittableRandom rnd,
                                           AtomicIntegerArray runs, AtomicIntegerArray childRuns,
                                           ConcurrentLinkedQueue<JobHandle<Integer>> accepted) {
        try {
            go.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        for (int k = 0; k < MAX_PER_SUBMITTER; k++) {
            int id = first + k;
            int sleepMillis = rnd.nextInt(2);
            try {
                accepted.add(jobs.submit(() -> body(jobs, id, sleepMillis, runs, childRuns)));
            } catch (RejectedExecutionException closed) {
                return;
            }
            int pause = rnd.nextInt(4) == 0 ? rnd.nextInt(5000) : 0;   // let the workers fall asleep
            for (int i = 0; i < pause; i++) {
                Thread.onSpinWait();
            }
        }
    }

    private static int body(JobSystem jobs, int id, int sleepMillis, AtomicIntegerArray runs,
                            AtomicIntegerArray childRuns) throws InterruptedException {
        runs.incrementAndGet(id);
        switch (id % 3) {
            case 0 -> {                                  // a child submitted while closing, waited for
                Counter child = new Counter("child" + id);
                jobs.run(() -> childRuns.incrementAndGet(id), child);
                child.await();
            }
            case 1 -> Thread.sleep(sleepMillis);         // parks the fiber outside Weft's own waits
            default -> { }
        }
        return id;
    }
}
