package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two job systems in one game, as a game might run its frame jobs and its streaming jobs (public API
 * only): a job of one system submits to the other and joins or awaits there, both ways, with the waits
 * parking (the other side sleeps first), and with one worker each, so a wait that held its worker
 * instead of parking its fiber would deadlock. Then one system closes while the other's jobs still use it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TwoSystemsTest {
    private static final int ROUNDS = TestSupport.FULL ? 5_000 : 500;

    @Test
    void aJobJoinsAHandleOfTheOtherSystemAndItsJobJoinsBack() {
        try (JobSystem frame = JobSystem.builder().name("frame").workers(1).build();
             JobSystem streaming = JobSystem.builder().name("streaming").workers(1).build()) {
            List<JobHandle<Integer>> roots = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                int id = i;
                roots.add(frame.submit(() -> {
                    // frame's only worker: this join must park the fiber, or the inner frame job never runs
                    JobHandle<Integer> loaded = streaming.submit(() -> {
                        if (id % 7 == 0) {
                            Thread.sleep(1);                       // the joiner parks for real
                        }
                        return frame.submit(() -> id * 2).join();  // back into frame, whose worker is ours
                    });
                    return loaded.join() + 1;
                }));
            }
            for (int i = 0; i < ROUNDS; i++) {
                assertEquals(i * 2 + 1, TestSupport.join(roots.get(i)), "round " + i);
            }
        }
    }

    @Test
    void aJobAwaitsACounterTheOtherSystemsJobsCountDown() {
        try (JobSystem frame = JobSystem.builder().name("frame").workers(1).build();
             JobSystem streaming = JobSystem.builder().name("streaming").workers(2).build()) {
            AtomicInteger ran = new AtomicInteger();
            Counter rounds = new Counter("rounds");
            for (int i = 0; i < ROUNDS / 10; i++) {
                frame.run(() -> {
                    Counter chunks = new Counter("chunks");
                    for (int c = 0; c < 8; c++) {
                        streaming.run(() -> {
                            ran.incrementAndGet();
                            if (ran.get() % 13 == 0) {
                                Thread.sleep(1);
                            }
                        }, chunks);
                    }
                    chunks.await();                                // parks a frame fiber on streaming's work
                    assertTrue(chunks.isDone());
                }, rounds);
            }
            TestSupport.await(rounds);
            assertEquals(ROUNDS / 10 * 8, ran.get());
        }
    }

    @Test
    void closingOneSystemWhileTheOthersJobsWaitOnItLosesNothing() throws Exception {
        JobSystem streaming = JobSystem.builder().name("streaming").workers(1).build();
        try (JobSystem frame = JobSystem.builder().name("frame").workers(2).build()) {
            AtomicInteger loadsRan = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            AtomicInteger joined = new AtomicInteger();
            Counter frames = new Counter("frames");
            for (int i = 0; i < 200; i++) {
                frame.run(() -> {
                    JobHandle<Integer> h;
                    try {
                        h = streaming.submit(() -> {
                            Thread.sleep(1);
                            return loadsRan.incrementAndGet();
                        });
                    } catch (java.util.concurrent.RejectedExecutionException closed) {
                        refused.incrementAndGet();                 // submitted after the close: told so
                        return;
                    }
                    h.join();                                      // accepted: it runs (close() drains)
                    joined.incrementAndGet();
                }, frames);
                if (i == 100) {
                    streaming.close();                             // the rest of the frames find it closed
                }
            }
            TestSupport.await(frames);
            assertEquals(200, refused.get() + joined.get(), "every frame job either joined its load or was refused");
            assertEquals(joined.get(), loadsRan.get(), "every accepted load ran once");
        }
        assertTrue(streaming.awaitTermination(TestSupport.LONG));
    }
}
