package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The counter a {@link JobHandle} is born with ({@code new Counter(name, pending)}, no CAS) behaves as
 * {@code new Counter(name)} then {@code add(pending)}: its value, a waiter parked on it, a re-arm after it.
 */
@Timeout(60)
class CounterBornPendingTest {

    @Test
    void aCounterBornPendingIsACounterAfterItsAdd() throws Exception {
        Counter born = new Counter("born", 2);
        assertEquals(2, born.value());
        assertFalse(born.isDone());

        AtomicBoolean woke = new AtomicBoolean();
        Thread waiter = Thread.ofPlatform().start(() -> {
            born.await();
            woke.set(true);
        });
        born.decrement();
        assertFalse(born.await(Duration.ofMillis(20)), "one unit is still pending");
        born.decrement();
        waiter.join(10_000);
        assertTrue(woke.get(), "the waiter woke at zero");
        assertTrue(born.isDone());

        born.add(1);                            // re-armed: a later waiter waits again
        assertFalse(born.await(Duration.ofMillis(20)));
        born.decrement();
        assertTrue(born.await(Duration.ofSeconds(5)));
    }

    @Test
    void aHandleIsPendingUntilItsJobEnds() throws Exception {
        try (JobSystem jobs = JobSystem.builder().name("born-pending").workers(1).build()) {
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            JobHandle<Integer> h = jobs.submit(() -> {
                release.await();
                return 42;
            });
            assertFalse(h.isDone(), "a handle is pending from its submit");
            release.countDown();
            assertEquals(42, h.join());
            assertTrue(h.isDone());
        }
    }
}
