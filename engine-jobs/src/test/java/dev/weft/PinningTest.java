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
        int[] before = allowedCpusOnLinux();
        try (JobSystem jobs = JobSystem.builder().workers(2).pinWorkersToCores(true).build()) {
            for (Worker w : jobs.schedulerForTests().workers) {
                TestSupport.eventually("worker " + w.index + " pinned", () -> w.pinnedCpu >= 0);
                assertEquals(before[w.index % before.length], w.pinnedCpu, "the mask's CPUs, in order");
            }
            Map<Integer, int[]> seen = new ConcurrentHashMap<>();
            Counter c = new Counter();
            jobs.parallelFor(Priority.NORMAL, 0, 1 << 16, 64,
                    (s, e, worker) -> seen.putIfAbsent(worker, CpuAffinity.allowedCpusOfCurrentThread()), c);
            TestSupport.await(c);
            // A native call made on a fiber runs on its carrier: the mask is the worker's.
            seen.forEach((worker, mask) -> assertArrayEquals(new int[] {before[worker % before.length]}, mask,
                    "worker " + worker));
        }
        assertArrayEquals(before, CpuAffinity.allowedCpusOfCurrentThread(), "the test thread was not pinned");
    }

    /**
     * Workers pin inside the mask they inherit. Built from a thread allowed only the last CPU (as under
     * {@code taskset -c N} or a cpuset), every worker pins to that CPU. Pinning worker {@code i} to CPU
     * {@code i} instead escaped the mask: Linux lets a thread widen its own affinity (within its cpuset),
     * and worker 0 was pinned to CPU 0.
     */
    @Test
    void workersPinInsideTheAffinityMaskTheyInherit() throws Exception {
        int[] allowed = allowedCpusOnLinux();
        int last = allowed[allowed.length - 1];
        int[][] pinned = new int[1][];
        Throwable[] failure = new Throwable[1];
        Thread builder = new Thread(() -> {           // its own thread: the test thread's mask stays as it is
            try {
                if (CpuAffinity.pinCurrentThread(last).isPresent()) {
                    throw new AssertionError("could not restrict the building thread to cpu " + last);
                }
                try (JobSystem jobs = JobSystem.builder().workers(2).pinWorkersToCores(true).build()) {
                    Worker[] workers = jobs.schedulerForTests().workers;
                    for (Worker w : workers) {
                        TestSupport.eventually("worker " + w.index + " pinned", () -> w.pinnedCpu >= 0);
                    }
                    pinned[0] = java.util.Arrays.stream(workers).mapToInt(w -> w.pinnedCpu).toArray();
                }
            } catch (Throwable t) {
                failure[0] = t;
            }
        }, "pinning-builder");
        builder.start();
        builder.join();
        if (failure[0] != null) {
            throw new AssertionError("built on a thread allowed only cpu " + last, failure[0]);
        }
        assertArrayEquals(new int[] {last, last}, pinned[0], "both workers on the one CPU of their mask");
    }

    /** The test thread's allowed CPUs; skips the test off Linux or with fewer than two. */
    private static int[] allowedCpusOnLinux() {
        assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"), "sched_setaffinity is Linux-only");
        int[] allowed = CpuAffinity.allowedCpusOfCurrentThread();
        assumeTrue(allowed.length >= 2 && allowed[0] >= 0, "this process may use only one CPU");
        return allowed;
    }
}
