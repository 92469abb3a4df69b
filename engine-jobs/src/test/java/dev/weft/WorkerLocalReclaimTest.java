package dev.weft;

import static dev.weft.TestSupport.await;
import static dev.weft.TestSupport.join;
import static dev.weft.TestSupport.workersOnly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A dropped (or closed) WorkerLocal frees every worker's value and its slot index, as a dropped
 * ThreadLocal's values go: a game that made a WorkerLocal of 1 MB per level ran out of a 512 MB heap
 * after ~100 levels, each level keeping one value per worker and a new slot index in every worker.
 */
@Timeout(120)
class WorkerLocalReclaimTest {
    private static final int WORKERS = 3;

    /**
     * Runs {@code action} with the worker index once on every worker. Rounds of short jobs that each hold
     * their worker for a moment, so the others take the rest, until every worker ran one: a worker asleep
     * through one round (nobody woke it, the others took every job) is woken by a later one.
     */
    private static void onEveryWorker(JobSystem jobs, IntConsumer action) {
        Set<Integer> seen = ConcurrentHashMap.newKeySet();
        long deadline = System.nanoTime() + TestSupport.LONG.toNanos();
        while (seen.size() < WORKERS && System.nanoTime() < deadline) {
            Counter round = new Counter("every worker");
            for (int i = 0; i < 2 * WORKERS; i++) {
                jobs.run(Priority.NORMAL, "every worker", () -> {
                    int w = Jobs.workerIndex();
                    if (seen.add(w)) {
                        action.accept(w);
                    }
                    long until = System.nanoTime() + 20_000_000L;
                    while (seen.size() < WORKERS && System.nanoTime() < until) {
                        Thread.onSpinWait();             // hold this worker: the others must take the rest
                    }
                }, round);
            }
            await(round);
        }
        assertEquals(WORKERS, seen.size(), "ran on every worker");
    }

    /** One level: a WorkerLocal of 1 MB used on every worker, then dropped. Returns its slot index. */
    private static int oneLevel(JobSystem jobs, List<WeakReference<byte[]>> values) {
        WorkerLocal<byte[]> scratch = WorkerLocal.withInitial(() -> {
            byte[] b = new byte[1 << 20];
            values.add(new WeakReference<>(b));
            return b;
        });
        onEveryWorker(jobs, w -> scratch.get()[0]++);
        return scratch.slotIndex();
    }

    private static boolean collectedAfterGc(List<WeakReference<byte[]>> values) {
        for (int i = 0; i < 100; i++) {                  // bounded: the Cleaner runs after one GC, frees after
            System.gc();
            if (values.stream().allMatch(r -> r.refersTo(null))) {
                return true;
            }
            TestSupport.sleepMillis(20);
        }
        return false;
    }

    @Test
    void theValuesOfADroppedWorkerLocalAreCollectedAndItsSlotIndexIsReused() {
        List<WeakReference<byte[]>> values = new CopyOnWriteArrayList<>();
        Set<Integer> dropped = ConcurrentHashMap.newKeySet();
        try (JobSystem jobs = workersOnly(WORKERS)) {
            for (int level = 0; level < 20; level++) {
                dropped.add(oneLevel(jobs, values));
            }
            assertEquals(20 * WORKERS, values.size(), "one value per worker and level");
            long alive = values.stream().filter(r -> !r.refersTo(null)).count();
            assertTrue(collectedAfterGc(values), "values of dropped WorkerLocals still reachable after GC: "
                    + values.stream().filter(r -> !r.refersTo(null)).count() + " of " + alive + " MB");
            TestSupport.eventually("the dropped WorkerLocals' slot indices are free again",
                    () -> dropped.stream().allMatch(WorkerLocal::slotIsFree));

            // The next WorkerLocals take those indices, and each worker starts from the new one's initial value.
            List<WorkerLocal<int[]>> next = new ArrayList<>();
            for (int i = 0; i < dropped.size(); i++) {
                int id = i;
                next.add(WorkerLocal.withInitial(() -> new int[] {id}));
            }
            assertTrue(next.stream().noneMatch(l -> WorkerLocal.slotIsFree(l.slotIndex())), "indices taken");
            Map<Integer, int[]> firstSeen = new ConcurrentHashMap<>();
            onEveryWorker(jobs, w -> {
                for (int i = 0; i < next.size(); i++) {
                    assertEquals(i, next.get(i).get()[0], "worker " + w + ": WorkerLocal " + i + "'s own value");
                }
                firstSeen.put(w, next.get(0).get());
            });
            assertEquals(WORKERS, firstSeen.size());
            next.forEach(WorkerLocal::close);
        }
    }

    @Test
    void aReusedSlotIndexStartsFromTheNewWorkerLocalsInitialValueOnEveryWorker() {
        try (JobSystem jobs = workersOnly(WORKERS)) {
            WorkerLocal<String[]> old = WorkerLocal.withInitial(() -> new String[] {"old"});
            onEveryWorker(jobs, w -> old.get()[0] = "old, used by worker " + w);
            int index = old.slotIndex();
            old.close();
            assertTrue(WorkerLocal.slotIsFree(index), "close() frees the slot index at once");
            assertThrows(IllegalStateException.class, old::get, "get() after close(), outside the workers");
            JobHandle<String[]> afterClose = jobs.submit(old::get);
            assertThrows(JobFailedException.class, afterClose::join, "get() after close(), on a worker");

            // Free indices are taken lowest first, and other tests' dropped WorkerLocals may be free too.
            List<WorkerLocal<String[]>> made = new ArrayList<>();
            WorkerLocal<String[]> reused = null;
            for (int i = 0; i < 10_000 && reused == null; i++) {
                WorkerLocal<String[]> l = WorkerLocal.withInitial(() -> new String[] {"new"});
                made.add(l);
                if (l.slotIndex() == index) {
                    reused = l;
                }
            }
            assertTrue(reused != null, "slot index " + index + " was not reused");
            WorkerLocal<String[]> fresh = reused;
            Map<Integer, String> seen = new ConcurrentHashMap<>();
            onEveryWorker(jobs, w -> seen.put(w, fresh.get()[0]));
            assertEquals(WORKERS, seen.size());
            seen.forEach((w, v) -> assertEquals("new", v, "worker " + w + " got the closed WorkerLocal's value"));
            assertEquals("new", join(jobs.submit(() -> fresh.get()[0])));
            made.forEach(WorkerLocal::close);
        }
    }
}
