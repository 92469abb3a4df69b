package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Virtual threads that are not Weft's fibers wait on Weft's work (public API only): the game's own I/O
 * threads ({@code Executors.newVirtualThreadPerTaskExecutor}) that submit decode jobs and await them, and
 * virtual threads a job starts for blocking work (they inherit the job's fiber as their scheduler, but
 * are not that fiber). Each must wait as an outside thread does; taken for the fiber, one would run
 * jobs and park as if it were the job that started it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VirtualThreadWaitersTest {
    private static final int LOADERS = TestSupport.FULL ? 2_000 : 200;

    @Test
    void theGamesOwnVirtualThreadsSubmitAndWait() throws Exception {
        try (JobSystem jobs = TestSupport.system(2);
             ExecutorService io = Executors.newVirtualThreadPerTaskExecutor()) {
            AtomicInteger decoded = new AtomicInteger();
            List<Future<Integer>> loads = new ArrayList<>();
            for (int i = 0; i < LOADERS; i++) {
                int id = i;
                loads.add(io.submit(() -> {
                    Thread.sleep(id % 3);                          // reads its file
                    Counter decode = new Counter("decode " + id);
                    for (int k = 0; k < 20; k++) {
                        jobs.run(decoded::incrementAndGet, decode);
                    }
                    decode.await();
                    return jobs.submit(() -> id * 3).join();
                }));
            }
            for (int i = 0; i < LOADERS; i++) {
                assertEquals(i * 3, loads.get(i).get(TestSupport.LONG.toSeconds(), TimeUnit.SECONDS), "loader " + i);
            }
            assertEquals(LOADERS * 20, decoded.get());
        }
    }

    @Test
    void virtualThreadsStartedByAJobWaitOnJobsOfTheirOwn() {
        try (JobSystem jobs = TestSupport.system(2)) {
            AtomicInteger ran = new AtomicInteger();
            List<JobHandle<Integer>> parents = new ArrayList<>();
            for (int p = 0; p < LOADERS / 4; p++) {
                int id = p;
                parents.add(jobs.submit(() -> {
                    Counter mine = new Counter("parent " + id);
                    jobs.run(() -> Thread.sleep(1), mine);     // the parent's own job, still pending below
                    Thread[] helpers = new Thread[4];
                    int[] results = new int[4];
                    for (int h = 0; h < 4; h++) {
                        int slot = h;
                        helpers[h] = Thread.ofVirtual().start(() -> {
                            Counter theirs = new Counter("helper " + id + "/" + slot);
                            for (int k = 0; k < 5; k++) {
                                jobs.run(ran::incrementAndGet, theirs);
                            }
                            theirs.await();
                            results[slot] = jobs.submit(() -> slot + 1).join();
                        });
                    }
                    for (Thread t : helpers) {
                        t.join();
                    }
                    mine.await();
                    return results[0] + results[1] + results[2] + results[3];
                }));
            }
            for (JobHandle<Integer> h : parents) {
                assertEquals(10, TestSupport.join(h));
            }
            assertEquals(LOADERS / 4 * 4 * 5, ran.get());
        }
    }
}
