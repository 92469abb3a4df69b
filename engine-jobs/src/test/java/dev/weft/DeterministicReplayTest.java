package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Deterministic mode replays one job order per seed, whatever the timing around it. A probe on the public
 * API found the first run in a JVM and the later ones giving different orders for the same seed (13 of 15
 * later runs differed from the first): the starvation rotation's phase counted every scan of the worker,
 * idle ones included, so how long the worker had spun before the work came decided which priority a later
 * scan started at.
 */
@Timeout(60)
class DeterministicReplayTest {

    @Test
    void theSameSeedGivesTheSameOrderWhetherTheWorkerSpunOrSleptBeforeTheWorkCame() throws Exception {
        List<String> first = runSeeded(42, 0);
        for (int idleMillis : new int[] {0, 30, 5, 60, 0, 15}) {
            assertEquals(first, runSeeded(42, idleMillis),
                    "seed 42 replayed another order after the worker idled " + idleMillis + " ms first");
        }
    }

    /**
     * Mixed priorities, so the starvation rotation decides picks: one root job submits 30 jobs at FRAME,
     * NORMAL and BACKGROUND, each of which submits 4 children and waits for them.
     */
    private static List<String> runSeeded(long seed, int idleMillis) throws Exception {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        try (JobSystem jobs = JobSystem.builder().deterministic(seed).build()) {
            Thread.sleep(idleMillis);                  // the worker scans for work meanwhile, then parks
            TestSupport.join(jobs.submit(() -> {
                Counter all = new Counter("all");
                Priority[] priorities = Priority.values();
                for (int i = 0; i < 30; i++) {
                    int id = i;
                    jobs.run(priorities[i % priorities.length], "j" + i, () -> {
                        order.add("s" + id);
                        Counter children = new Counter("c" + id);
                        for (int k = 0; k < 4; k++) {
                            int kk = k;
                            jobs.run(Priority.NORMAL, null, () -> order.add("c" + id + "." + kk), children);
                        }
                        children.await();
                        order.add("e" + id);
                    }, all);
                }
                all.await();
                return null;
            }));
        }
        return new ArrayList<>(order);
    }
}
