package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Handles joined by everyone at once, on the public API only: each job is joined, just as it ends, by the
 * thread that submitted it, by another job, by a {@code jobs.after(handle)} dependent and by a
 * {@code CompletableFuture} reader. A handle makes the counter a waiter parks on only when one must wait
 * (SYNCHRONIZATION.md §19); a waiter that installs it while the job ends must still be woken. A join
 * that never returns fails here on its timeout, naming the round.
 */
@Timeout(180)
class HandleJoinRaceTest {
    private static final int HANDLES_PER_ROUND = 32;

    @Test
    void everyJoinerOfAnEndingJobReturnsItsValue() throws Exception {
        int rounds = TestSupport.FULL ? 20_000 : 2000;
        AtomicLong dependentsRan = new AtomicLong();
        AtomicLong futuresSeen = new AtomicLong();
        try (JobSystem jobs = JobSystem.builder().name("joined").workers(2).build()) {
            for (int round = 0; round < rounds; round++) {
                @SuppressWarnings("unchecked")
                JobHandle<Integer>[] handles = new JobHandle[HANDLES_PER_ROUND];
                for (int i = 0; i < HANDLES_PER_ROUND; i++) {
                    int value = round * HANDLES_PER_ROUND + i;
                    int spins = (value * 7919) % 300;                // ends at staggered moments
                    handles[i] = jobs.submit(() -> {
                        for (int s = 0; s < spins; s++) {
                            Thread.onSpinWait();
                        }
                        return value;
                    });
                }
                Counter others = new Counter("round " + round + " joiners");
                // A job joining every handle of the round, as a frame's gather job does.
                JobHandle<Long> gather = jobs.submit(() -> {
                    long sum = 0;
                    for (JobHandle<Integer> h : handles) {
                        sum += h.join();
                    }
                    return sum;
                });
                for (JobHandle<Integer> h : handles) {
                    jobs.after(h).run(Priority.NORMAL, "dependent", dependentsRan::incrementAndGet, others);
                    h.toCompletableFuture().thenRun(futuresSeen::incrementAndGet);
                }
                long expected = 0;
                for (int i = 0; i < HANDLES_PER_ROUND; i++) {
                    expected += joinOrFail(handles[i], round);         // the submitting thread joins too
                }
                assertEquals(expected, joinOrFail(gather, round), "round " + round + ": the gathering job's sum");
                if (!others.await(Duration.ofSeconds(30))) {
                    fail("round " + round + ": a jobs.after(handle) dependent never ran: " + others);
                }
            }
        }
        assertEquals((long) rounds * HANDLES_PER_ROUND, dependentsRan.get(), "dependents run");
        assertEquals((long) rounds * HANDLES_PER_ROUND, futuresSeen.get(), "futures completed");
    }

    private static <T> T joinOrFail(JobHandle<T> h, int round) {
        try {
            return h.join(Duration.ofSeconds(30));
        } catch (TimeoutException e) {
            throw new AssertionError("round " + round + ": join never returned (a lost wake-up?): " + h, e);
        }
    }
}
