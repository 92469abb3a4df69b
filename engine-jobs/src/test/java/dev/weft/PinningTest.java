package dev.weft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.internal.CpuAffinity;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Optional core pinning through sched_setaffinity (Linux, FFM). */
@Timeout(60)
class PinningTest {

    @Test
    void pinnedWorkersRunOnOneCpuEach() {
        assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"), "sched_setaffinity is Linux-only");
        int cpus = Runtime.getRuntime().availableProcessors();
        int[] before = CpuAffinity.allowedCpusOfCurrentThread();
        assumeTrue(before.length >= 2 && before[0] >= 0, "this process may use only one CPU");
        try (JobSystem jobs = JobSystem.builder().workers(2).pinWorkersToCores(true).build()) {
            for (Worker w : jobs.schedulerForTests().workers) {
                TestSupport.eventually("worker " + w.index + " pinned", () -> w.pinnedCpu >= 0);
                assertEquals(w.index % cpus, w.pinnedCpu);
            }
            Map<Integer, int[]> seen = new ConcurrentHashMap<>();
            Counter c = new Counter();
            jobs.parallelFor(Priority.NORMAL, 0, 1 << 16, 64,
                    (s, e, worker) -> seen.putIfAbsent(worker, CpuAffinity.allowedCpusOfCurrentThread()), c);
            TestSupport.await(c);
            // A native call made on a fiber runs on its carrier: the mask is the worker's.
            seen.forEach((worker, mask) -> assertArrayEquals(new int[] {worker % cpus}, mask, "worker " + worker));
        }
        assertArrayEquals(before, CpuAffinity.allowedCpusOfCurrentThread(), "the test thread was not pinned");
    }
}
