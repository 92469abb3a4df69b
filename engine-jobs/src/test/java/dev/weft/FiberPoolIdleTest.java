package dev.weft;

import static dev.weft.TestSupport.await;
import static dev.weft.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The idle-fiber pool (SYNCHRONIZATION.md §3, "Idle fibers"): each worker's spare slot, the bounded
 * shared queue ({@value IdleFibers#CAPACITY} fibers) and the overflow past it (for races only: a fiber
 * that finds the queue full ends instead of idling). No idle fiber is lost, whichever of the three holds
 * it, and a bounded pool is never dry while a fiber is idle in another worker's slot.
 */
class FiberPoolIdleTest {
    private static final int WORKERS = 2;

    /**
     * More fibers than the shared queue holds all park at once and end: the pool keeps what its queue and
     * the spare slots hold and ends the rest, and the next burst reuses every one kept (none lost) and
     * makes only the difference. Before, all were kept for the system's life: after 100,000 parked jobs,
     * 100,000 fibers (150-200 MB), and a watchdog walking them every few milliseconds took 70% of a core.
     */
    @Test
    void idleFibersBeyondTheSharedQueuesCapacityEndAndTheRestAreReused() {
        int waiters = IdleFibers.CAPACITY + 500;
        // The queue and one spare slot each, and one more per worker: a fiber checks the queue before its
        // carrier offers it, so one in flight per carrier can land in the overflow.
        int kept = IdleFibers.CAPACITY + 2 * WORKERS;
        try (JobSystem jobs = JobSystem.builder().workers(WORKERS).fiberPool(FiberPoolPolicy.growable()).build()) {
            parkAllThenRelease(jobs, waiters);
            long afterFirst = jobs.stats().fibersCreated();
            assertTrue(afterFirst >= waiters, afterFirst + " fibers for " + waiters + " parked waits");
            // The last fibers of the round pool themselves (or end) just after their job: allow them a moment.
            eventually(() -> "at most " + kept + " fibers kept idle: " + jobs.stats(),
                    () -> jobs.stats().fibersAlive() <= kept);
            long keptIdle = jobs.stats().fibersAlive();
            parkAllThenRelease(jobs, waiters);
            long made = jobs.stats().fibersCreated() - afterFirst;
            assertTrue(made >= waiters - keptIdle && made <= waiters - keptIdle + WORKERS, "round two made " + made
                    + " new fibers for " + waiters + " waits with " + keptIdle + " kept idle: a kept fiber was lost"
                    + " (more) or a fiber ended was counted as kept (fewer)");
        }
    }

    /**
     * Two workers, two fibers. Worker A's releaser job readies a waiter and ends, so its fiber idles in A's
     * spare slot while A resumes the waiter, which then spins until a job it submitted has run. Only worker
     * B can run that job, and the only idle fiber is in A's slot: B must take it. Were a worker to look
     * only at its own slot and the shared queues, B would find the pool dry, and after the exhaustion
     * timeout the job would fail with FiberPoolExhaustedException. (The waiter may instead resume on B,
     * whose own slot then serves: the rounds repeat the race.)
     */
    @Test
    void aBoundedPoolTakesAnotherWorkersSpareBeforeReportingItselfDry() throws Exception {
        try (JobSystem jobs = JobSystem.builder().workers(WORKERS).waitersHelp(false)
                .fiberPool(FiberPoolPolicy.bounded(2, Duration.ofMillis(200))).build()) {
            for (int round = 0; round < 30; round++) {
                Counter gate = new Counter("gate");
                gate.add(1);
                java.util.concurrent.atomic.AtomicReference<JobHandle<Boolean>> inner =
                        new java.util.concurrent.atomic.AtomicReference<>();
                JobHandle<Boolean> waiter = jobs.submit(Priority.NORMAL, "waiter", () -> {
                    gate.await();
                    JobHandle<Boolean> h = jobs.submit(Priority.NORMAL, "inner", () -> true);
                    inner.set(h);
                    long deadline = System.nanoTime() + TestSupport.LONG.toNanos();
                    while (!h.isDone() && System.nanoTime() < deadline) {   // holds this worker and fiber
                        Thread.onSpinWait();
                    }
                    return h.isDone();
                });
                eventually("the waiter parked", () -> jobs.stats().fibersParked() == 1);
                jobs.run(Priority.NORMAL, "releaser", gate::decrement, null);
                assertTrue(TestSupport.join(waiter), "round " + round + ": the inner job never ended");
                assertTrue(TestSupport.join(inner.get()), "round " + round);   // throws if it failed to start
            }
            assertTrue(jobs.stats().fibersCreated() <= 2, jobs.stats().toString());
        }
    }

    /**
     * A late unpark of a pooled fiber (a decrementer that fired the fiber's wait node after the fiber had
     * seen the value and gone on) runs it while it is pooled; it parks idle again and its carrier pools it
     * a second time. The stale entry must not hand the fiber a job once the other entry's taker has it
     * parked in a wait: the job would sit in a fiber that cannot run it, and busyFibers would count the
     * fiber twice (close() then never terminates). One worker, so every step is on one carrier.
     */
    @Test
    void aFiberPooledTwiceByALateUnparkIsHandedOutOnce() throws Exception {
        JobSystem jobs = JobSystem.builder().workers(1).waitersHelp(false).build();
        try {
            Counter first = new Counter("first");
            jobs.run(() -> { }, first);
            await(first);
            FiberPool pool = jobs.schedulerForTests().fibers;
            eventually("the fiber pooled", () -> pool.idleEntries() == 1);
            Fiber f = pool.all().iterator().next();
            java.util.concurrent.locks.LockSupport.unpark(f.thread);        // the late unpark
            eventually(() -> "pooled twice: " + pool.idleEntries(), () -> pool.idleEntries() == 2);
            assertEquals(1, pool.strayIdleWakes.get(), "the late unpark is counted as a stray wake");

            Counter gate = new Counter("gate");
            gate.add(1);
            Counter waiting = new Counter("waiting");
            jobs.run(gate::await, waiting);                                // takes the fiber, parks it
            eventually("the waiter parked", () -> jobs.stats().fibersParked() == 1);
            Counter second = new Counter("second");
            jobs.run(() -> { }, second);                                   // finds the stale entry
            await(second);                                                 // on a fiber of its own
            gate.decrement();
            await(waiting);
        } finally {
            jobs.shutdown();          // not close(): with the fiber counted twice it would wait for ever
        }
        assertTrue(jobs.awaitTermination(TestSupport.LONG), "the job system did not terminate: " + jobs.stats());
    }

    private static void parkAllThenRelease(JobSystem jobs, int waiters) {
        Counter gate = new Counter("gate");
        gate.add(1);
        Counter done = new Counter("done");
        for (int i = 0; i < waiters; i++) {
            jobs.run(gate::await, done);
        }
        eventually(() -> "all " + waiters + " parked: " + jobs.stats(), () -> jobs.stats().fibersParked() == waiters);
        gate.decrement();
        await(done);
    }
}
