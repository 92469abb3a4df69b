package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Counter wake-ups under load, and the exactly-once decrement of a job's counter. */
class CounterStressTest {
    private static final int ROUNDS = TestSupport.FULL ? 20_000 : 2_000;

    /** A wait that lasts this long slept through its wake-up (the decrements come at once). */
    private static final Duration WAIT = Duration.ofSeconds(5);

    /**
     * Seeded rounds: a counter at N, three plain threads waiting for random targets in [0, N), two
     * threads sharing the N decrements. Every wait must return true well before its timeout, and no
     * waiter may return while the value is still above its target. A lost wake-up does not make a timed
     * wait return false: the waiter sleeps until its timeout, re-checks, finds the target reached and
     * returns true, late; so lateness is what is checked. This is the many-waiters, several-targets case
     * jcstress cannot schedule on a two-core machine.
     */
    /**
     * Short timed waits on a long-lived counter (progress polling from several jobs): a wait that timed out
     * under a newer live waiter left its node on the stack for the counter's life, so memory grew by ~57 B
     * a poll and every decrement walked all of them (300 µs each after 30 s; found by a probe). Dead nodes
     * anywhere on the stack are unlinked now, amortized over pushes.
     */
    @Test
    void timedOutWaitsLeaveNoNodesBehindUnderNewerWaiters() {
        Counter progress = new Counter("level progress");
        progress.add(1_000_000);
        int[] maxNodes = new int[1];
        try (JobSystem jobs = TestSupport.system(2)) {
            Counter pollers = new Counter("pollers");
            for (int p = 0; p < 4; p++) {
                jobs.run(Priority.BACKGROUND, "poller " + p, () -> {
                    for (int i = 0; i < 500; i++) {
                        progress.await(Duration.ofMillis(1));      // times out: nobody decrements
                    }
                }, pollers);
            }
            while (!pollers.await(Duration.ofMillis(10))) {
                maxNodes[0] = Math.max(maxNodes[0], progress.waiterNodes());
            }
        }
        assertTrue(maxNodes[0] <= 64, "up to " + maxNodes[0] + " waiter nodes on the counter while 4 jobs polled it"
                + " (at most 4 live)");
    }

    @Test
    void waitersAtRandomTargetsAreAllReleased() throws Exception {
        long seed = Long.getLong("weft.seed", System.nanoTime());
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < ROUNDS; round++) {
            int n = 1 + rnd.nextInt(6);
            Counter c = new Counter("round " + round);
            c.add(n);
            AtomicReference<String> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (int w = 0; w < 3; w++) {
                long target = rnd.nextInt(n);
                threads.add(new Thread(() -> {
                    awaitQuietly(go);
                    long t0 = System.nanoTime();
                    if (!c.await(target, WAIT)) {
                        failure.compareAndSet(null, "waiter for " + target + " timed out at " + c.value());
                    } else if (System.nanoTime() - t0 >= WAIT.toNanos()) {
                        failure.compareAndSet(null, "waiter for " + target + " slept through its wake-up "
                                + "until its " + WAIT + " timeout");
                    } else if (c.value() > target) {
                        failure.compareAndSet(null, "waiter for " + target + " released at " + c.value());
                    }
                }));
            }
            int first = rnd.nextInt(n + 1);
            for (int share : new int[] {first, n - first}) {
                threads.add(new Thread(() -> {
                    awaitQuietly(go);
                    for (int i = 0; i < share; i++) {
                        c.decrement();
                    }
                }));
            }
            threads.forEach(Thread::start);
            go.countDown();
            for (Thread t : threads) {
                t.join(TestSupport.LONG.toMillis() * 2);
                if (t.isAlive()) {
                    fail("seed " + seed + " round " + round + ": a thread hung\n" + TestSupport.threadDump());
                }
            }
            if (failure.get() != null) {
                fail("seed " + seed + " (rerun with -Dweft.seed=" + seed + ") round " + round + ": " + failure.get());
            }
            assertEquals(0, c.value());
        }
    }

    /**
     * A queued handle cancelled with {@link JobHandle#cancel()} (which completes it and decrements its
     * counter) is not completed again by {@code shutdownNow()}, which still finds it in the queue.
     * Regression test: its counter went down twice, reaching 0 while the blocker job was still running;
     * {@code shutdownNow} threw IllegalStateException from the handle's own done counter, and the
     * blocker's legitimate decrement later went "below zero".
     */
    @Test
    void cancelledHandleDecrementsItsCounterOnceAcrossShutdownNow() throws Exception {
        List<String> uncaught = new ArrayList<>();
        JobSystem jobs = JobSystem.builder().name("double-complete").workers(1)
                .onUncaughtFailure((job, t) -> {
                    synchronized (uncaught) {
                        uncaught.add(job + ": " + t);
                    }
                })
                .build();
        Counter c = new Counter("c");
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean release = new AtomicBoolean();
        jobs.run(Priority.NORMAL, "blocker", () -> {          // keeps the only worker busy (no park)
            started.countDown();
            while (!release.get()) {
                Thread.onSpinWait();
            }
        }, c);
        started.await();
        JobHandle<Integer> victim = jobs.submit(Priority.NORMAL, "victim", () -> 1, c);
        assertEquals(2, c.value());
        assertTrue(victim.cancel());
        assertEquals(1, c.value(), "cancel() completes the victim once");
        try {
            jobs.shutdownNow();
            assertEquals(1, c.value(), "shutdownNow completed the already-cancelled victim again");
        } finally {
            release.set(true);
            jobs.awaitTermination(TestSupport.LONG);
        }
        assertEquals(0, c.value());
        synchronized (uncaught) {
            assertTrue(uncaught.isEmpty(), uncaught::toString);
        }
    }

    private static void awaitQuietly(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
