package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.internal.WorkStealingDeque;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Once a job has ended and its caller dropped the handle, nothing in Weft keeps the job's closure or result
 * reachable: deque slots, injection and ready queues, wait nodes, fiber fields, the handle's callable.
 * A game loads texture after texture this way; a retained result is a level's worth of memory kept alive.
 */
class RetentionTest {
    private static final String FLAGS = "--add-opens";

    /**
     * The user's program: results of a quarter of the heap each, one after another, 16 of them (4x the heap),
     * from outside the workers and from inside a job, on 1 and 2 workers. Failed with OutOfMemoryError after
     * a few loads when popped deque slots kept their jobs.
     */
    @Test
    void resultsOfAQuarterOfTheHeapEachAreCollectedOnceDropped(@TempDir Path dir) throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, "BigResults", """
                import dev.weft.*;
                public class BigResults {
                    static final int QUARTER = 64 << 20;          // of -Xmx256m
                    public static void main(String[] a) {
                        for (int workers : new int[] {1, 2}) {
                            try (JobSystem jobs = JobSystem.builder().workers(workers).build()) {
                                long total = 0;
                                for (int i = 0; i < 16; i++) {
                                    total += jobs.submit(() -> new byte[QUARTER]).join().length;
                                }
                                System.out.println(workers + " outside " + (total >> 20) + " MB");
                                long inside = jobs.submit(() -> {
                                    long t = 0;
                                    for (int i = 0; i < 16; i++) {
                                        t += jobs.submit(() -> new byte[QUARTER]).join().length;
                                    }
                                    return t;
                                }).join();
                                System.out.println(workers + " inside " + (inside >> 20) + " MB");
                                Counter c = new Counter("fire and forget");
                                for (int i = 0; i < 16; i++) {
                                    byte[][] box = {new byte[QUARTER]};      // a closure holding a big array
                                    jobs.run(Priority.NORMAL, "holder", () -> box[0][0]++, c);
                                    c.await();
                                }
                                System.out.println(workers + " closures done");
                            }
                        }
                    }
                }
                """, FLAGS, "java.base/java.lang=ALL-UNNAMED", "-Xmx256m", "-XX:+UseSerialGC");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        for (int w : new int[] {1, 2}) {
            assertTrue(out.contains(w + " outside 1024 MB"), out);
            assertTrue(out.contains(w + " inside 1024 MB"), out);
            assertTrue(out.contains(w + " closures done"), out);
        }
    }

    @Test
    void aDroppedHandlesResultIsCollected() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            List<WeakReference<Object>> results = new ArrayList<>();
            List<WeakReference<Object>> closures = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                Object marker = new Object();
                closures.add(new WeakReference<>(marker));
                JobHandle<Object> h = jobs.submit(() -> marker.hashCode() >= 0 ? new Object() : null);
                results.add(new WeakReference<>(TestSupport.join(h)));
            }
            // ... and from inside a job, where handles live in the worker's own deque.
            TestSupport.join(jobs.submit(() -> {
                for (int i = 0; i < 50; i++) {
                    results.add(new WeakReference<>(jobs.submit(Object::new).join()));
                }
                return null;
            }));
            assertCollected(results, "results");
            assertCollected(closures, "closures");
        }
    }

    @Test
    void theDequeKeepsNothingItGaveAway() {
        WorkStealingDeque<Object> d = new WorkStealingDeque<>(4);   // small: pushes below grow it
        List<WeakReference<Object>> refs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 40; i++) {
                Object o = new Object();
                refs.add(new WeakReference<>(o));
                d.push(o);
            }
            for (int i = 0; i < 20; i++) {
                assertTrue(d.steal() != null);
            }
            while (d.pop() != null) {
                // owner takes the rest
            }
        }
        assertTrue(d.isEmpty());
        assertCollected(refs, "deque elements");
    }

    @Test
    void aDeadWaitNodeKeepsNoJob() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            Counter longLived = new Counter("long-lived");
            List<WeakReference<Object>> jobsSeen = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                longLived.add(1);
                JobHandle<Object> h = jobs.submit(() -> {
                    longLived.await();                           // its wait node stays on longLived's stack
                    return null;
                });
                jobsSeen.add(new WeakReference<>(h));
                TestSupport.eventually("waiter parked", () -> jobs.stats().fibersParked() > 0);
                longLived.decrement();
                TestSupport.join(h);
            }
            assertCollected(jobsSeen, "handles that waited on a live counter");
            assertTrue(longLived.isDone());
        }
    }

    /**
     * A handle cancelled before its job started, and kept by the caller (a loader's table of requests, say):
     * its closure is dropped. It used to be held for as long as the handle was, with everything it captured.
     */
    @Test
    void aCancelledHandleTheCallerKeepsDropsItsClosure() {
        try (JobSystem jobs = TestSupport.system(1)) {
            java.util.concurrent.atomic.AtomicBoolean release = new java.util.concurrent.atomic.AtomicBoolean();
            Counter blocker = new Counter("blocker");
            jobs.run(Priority.NORMAL, "spin", () -> {         // keeps the only worker busy: nothing starts
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            }, blocker);
            List<JobHandle<Integer>> kept = new ArrayList<>();
            List<WeakReference<Object>> captured = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                byte[] texture = new byte[1 << 20];
                captured.add(new WeakReference<>(texture));
                JobHandle<Integer> h = jobs.submit(() -> texture.length);
                assertTrue(h.cancel(), "cancelled before it started");
                kept.add(h);
            }
            release.set(true);
            blocker.await();
            TestSupport.join(jobs.submit(() -> 0));            // the worker went past the cancelled nodes
            assertCollected(captured, "closures of cancelled handles the caller keeps");
            assertEquals(8, kept.stream().filter(JobHandle::isCancelled).count());
        }
    }

    private static void assertCollected(List<WeakReference<Object>> refs, String what) {
        TestSupport.eventually(() -> refs.stream().filter(r -> r.get() != null).count() + " of " + refs.size()
                + " " + what + " still reachable after GC", () -> {
                    System.gc();
                    return refs.stream().allMatch(r -> r.get() == null);
                });
    }
}
