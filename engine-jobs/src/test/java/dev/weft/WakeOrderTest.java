package dev.weft;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which sleeping worker a job from outside the workers wakes (WorkerParking.signalInjectedWork): the one
 * that went to sleep last, as ForkJoinPool's stack of idle workers does, so that a thread submitting jobs
 * one at a time keeps one worker busy and lets the others sleep. Not a timing test: before each job the
 * test waits until every worker is registered asleep, so the waker always chooses among all of them.
 * The round-robin cursor that workers' own pushes use spreads the same 40 jobs 10 per worker.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WakeOrderTest {
    private static final int WORKERS = 4;
    private static final int JOBS = 40;

    @Test
    void jobsFromOutsideKeepWakingTheWorkerThatSleptLast() throws InterruptedException {
        try (JobSystem jobs = JobSystem.builder().name("wake-order").workers(WORKERS)
                .idleStrategy(IdleStrategy.backoff(0, 0)).build()) {
            Scheduler scheduler = jobs.schedulerForTests();
            int[] jobsPerWorker = new int[WORKERS];
            int[] ranOn = new int[1];
            Counter done = new Counter("one job");
            for (int i = 0; i < JOBS; i++) {
                awaitAllAsleep(scheduler, i);
                jobs.run(() -> ranOn[0] = Jobs.workerIndex(), done);
                done.await();                               // orders the job's write before this read
                jobsPerWorker[ranOn[0]]++;
            }
            int most = Arrays.stream(jobsPerWorker).max().orElseThrow();
            // The worker that ran a job is the last to fall asleep after it, so all 40 go to one worker;
            // a little slack for a worker that a busy machine kept from registering in order.
            assertTrue(most >= JOBS * 3 / 4, () -> "jobs per worker " + Arrays.toString(jobsPerWorker)
                    + ": a job from outside should wake the worker that went to sleep last");
        }
    }

    private static void awaitAllAsleep(Scheduler scheduler, int job) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (scheduler.workersAsleepForTests() != WORKERS) {
            if (System.nanoTime() - deadline > 0) {
                fail("before job " + job + ": only " + scheduler.workersAsleepForTests() + " of " + WORKERS
                        + " workers asleep after 30 s");
            }
            Thread.sleep(0, 200_000);
        }
    }
}
