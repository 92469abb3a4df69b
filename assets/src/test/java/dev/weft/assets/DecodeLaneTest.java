package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.Counter;
import dev.weft.JobSystem;
import dev.weft.Priority;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The decode lane never runs more than its limit at once, and runs everything it was given. */
@Timeout(120)
class DecodeLaneTest {

    @Test
    void atMostLimitTasksRunAtOnce() {
        for (int workers : new int[] {1, 2, 4}) {
            for (int limit = 1; limit <= workers; limit++) {
                try (JobSystem jobs = JobSystem.builder().name("lane-test").workers(workers).build()) {
                    DecodeLane lane = new DecodeLane(jobs.newGroup("lane"), limit, 0);
                    AtomicInteger running = new AtomicInteger();
                    AtomicInteger max = new AtomicInteger();
                    AtomicInteger ran = new AtomicInteger();
                    Counter all = new Counter("callers");
                    for (int i = 0; i < 300; i++) {
                        jobs.run(Priority.BACKGROUND, "caller " + i, () -> lane.call(() -> {
                            max.accumulateAndGet(running.incrementAndGet(), Math::max);
                            long end = System.nanoTime() + 20_000;
                            while (System.nanoTime() < end) {
                                Thread.onSpinWait();
                            }
                            running.decrementAndGet();
                            return ran.incrementAndGet();
                        }, r -> { }), all);
                    }
                    all.await();
                    assertEquals(300, ran.get(), "every task ran");
                    assertTrue(max.get() <= limit, "limit " + limit + " on " + workers + " workers, saw " + max.get());
                    Fixture.assertNoFiberParked(jobs);
                }
            }
        }
    }
}
