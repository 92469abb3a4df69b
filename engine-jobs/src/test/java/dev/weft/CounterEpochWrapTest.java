package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A long-lived counter that never drains (an "in flight" count the game keeps for its whole run) takes
 * more than 2^31 adds while something waits on it. The add-epoch that tells a stale decrement from a
 * current one is 32 bits, compared wrap-safely; before the waiters' epochs were aged, every waiter
 * registered 2^31 adds earlier was skipped by every decrement for good: the counter reached zero and a
 * thread, a job's fiber and an {@code after} job all stayed asleep. About 2^31 add/decrement pairs on
 * one thread: 20-30 s here, single-threaded, so it runs in CI too.
 */
class CounterEpochWrapTest {
    private static final long PAIRS = (1L << 31) + 1_000;

    @Test
    void waitersRegisteredTwoToTheThirtyOneAddsAgoAreWokenWhenTheCounterDrains() throws Exception {
        try (JobSystem jobs = JobSystem.builder().workers(1).build()) {
            Counter inFlight = new Counter("in flight");
            inFlight.add(1);
            Thread thread = Thread.ofPlatform().start(inFlight::await);
            JobHandle<String> job = jobs.submit(() -> {
                inFlight.await();
                return "woken";
            });
            CountDownLatch afterRan = new CountDownLatch(1);
            jobs.after(inFlight).run(Priority.NORMAL, "after in flight", afterRan::countDown, null);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (inFlight.waiterNodes() < 3 || thread.getState() != Thread.State.WAITING) {
                assertTrue(System.nanoTime() < deadline, "the three waiters never registered");
                Thread.sleep(1);
            }
            assertEquals(0, inFlight.addEpoch() >>> 31, "starts far from the wrap");

            for (long i = 0; i < PAIRS; i++) {          // the value swings 1 -> 2 -> 1
                inFlight.add(1);
                inFlight.decrement();
            }
            assertTrue(inFlight.addEpoch() < 0, "the epoch went past 2^31: " + inFlight.addEpoch());
            inFlight.decrement();                        // drains: every waiter is due

            try {
                thread.join(10_000);
                assertEquals(Thread.State.TERMINATED, thread.getState(), "the waiting thread was not woken");
                assertEquals("woken", job.join(Duration.ofSeconds(10)), "the waiting job was not woken");
                assertTrue(afterRan.await(10, TimeUnit.SECONDS), "the after(counter) job never ran");
            } catch (Throwable notWoken) {
                jobs.shutdownNow();                      // cancels the parked job, so close() does not wait on it
                throw notWoken;
            }
        }
    }
}
