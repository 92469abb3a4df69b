package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job deque that must grow while the heap is exhausted (JobDeque.grow throws OutOfMemoryError, through
 * its test hook): the node being pushed had been counted (its counter's add) and was in no queue. A job
 * submitting children from a worker got the Error from {@code run}, the child was lost and its counter
 * stayed up, so its waiter timed out. Now the ring keeps it on its owner's overflow list and runs it.
 */
@Timeout(60)
class DequeGrowthOutOfMemoryTest {
    private static final int CHILDREN = 1000;    // the ring starts at 256 slots: growth at the 257th push

    private static JobSystem system(ConcurrentLinkedQueue<String> uncaught) {
        return JobSystem.builder().workers(1).name("growth")
                .onUncaughtFailure((job, t) -> uncaught.add(job + ": " + t)).build();
    }

    /** The worker's thread, as seen from inside a job. */
    private static Thread workerThread(JobSystem jobs) throws Exception {
        return jobs.submit(() -> dev.weft.internal.FiberSupport.currentCarrier()).join();
    }

    @Test
    void childrenSubmittedWhileTheDequeCannotGrowAllRunAndCompleteTheirCounter() throws Exception {
        ConcurrentLinkedQueue<String> uncaught = new ConcurrentLinkedQueue<>();
        try (JobSystem jobs = system(uncaught)) {
            JobDeque.failGrowthOnForTests = workerThread(jobs);
            try {
                Counter children = new Counter("children");
                AtomicInteger ran = new AtomicInteger();
                AtomicReference<Throwable> submitThrew = new AtomicReference<>();
                JobHandle<Object> parent = jobs.submit(() -> {
                    try {
                        for (int i = 0; i < CHILDREN; i++) {
                            jobs.run(Priority.NORMAL, "child", ran::incrementAndGet, children);
                        }
                    } catch (Throwable t) {
                        submitThrew.set(t);
                    }
                    return null;
                });
                parent.join();
                assertTrue(children.await(Duration.ofSeconds(10)),
                        "every counted child ran (value " + children.value() + ", submit threw " + submitThrew.get() + ")");
                assertNull(submitThrew.get(), "no submission failed");
                assertEquals(CHILDREN, ran.get());
            } finally {
                JobDeque.failGrowthOnForTests = null;
            }
            assertEquals(7, jobs.submit(() -> 7).join(), "the worker goes on");
        }
        assertTrue(uncaught.isEmpty(), "nothing failed: " + uncaught);
    }

    @Test
    void aBatchSubmittedWhileTheDequeCannotGrowAllRuns() throws Exception {
        ConcurrentLinkedQueue<String> uncaught = new ConcurrentLinkedQueue<>();
        try (JobSystem jobs = system(uncaught)) {
            JobDeque.failGrowthOnForTests = workerThread(jobs);
            try {
                Counter batch = new Counter("batch");
                AtomicInteger ran = new AtomicInteger();
                AtomicReference<Throwable> submitThrew = new AtomicReference<>();
                Job[] many = new Job[CHILDREN];
                java.util.Arrays.fill(many, (Job) ran::incrementAndGet);
                jobs.submit(() -> {
                    try {
                        jobs.runAll(Priority.NORMAL, batch, many);
                    } catch (Throwable t) {
                        submitThrew.set(t);
                    }
                    return null;
                }).join();
                assertTrue(batch.await(Duration.ofSeconds(10)), "the batch completed (value " + batch.value()
                        + ", submit threw " + submitThrew.get() + ")");
                assertNull(submitThrew.get(), "no submission failed");
                assertEquals(CHILDREN, ran.get());
            } finally {
                JobDeque.failGrowthOnForTests = null;
            }
        }
        assertTrue(uncaught.isEmpty(), "nothing failed: " + uncaught);
    }

    /**
     * A parallelFor's root range runs nested (its submitter helps before it waits) on a full ring: every
     * split pushes its upper half onto a ring that cannot grow. The half was counted and lost, its range
     * failed with the Error, and the counter never reached zero.
     */
    @Test
    void aRangeSplitOntoAFullRingThatCannotGrowStillCoversEveryIndex() throws Exception {
        ConcurrentLinkedQueue<String> uncaught = new ConcurrentLinkedQueue<>();
        try (JobSystem jobs = system(uncaught)) {
            JobDeque.failGrowthOnForTests = workerThread(jobs);
            try {
                Counter fillers = new Counter("fillers");
                Counter range = new Counter("range");
                AtomicInteger indices = new AtomicInteger();
                String outcome = jobs.submit(() -> {
                    for (int i = 0; i < 255; i++) {
                        jobs.run(Priority.NORMAL, "filler", () -> { }, fillers);
                    }
                    jobs.parallelFor(Priority.NORMAL, 0, 4096, 1, (s, e, w) -> indices.addAndGet(e - s), range);
                    try {
                        return range.await(Duration.ofSeconds(10)) ? "reached" : "timeout, value " + range.value();
                    } catch (JobFailedException e) {
                        return "failed: " + e.getCause();
                    }
                }).join();
                assertEquals("reached", outcome);
                assertEquals(4096, indices.get());
                assertTrue(fillers.await(Duration.ofSeconds(10)));
            } finally {
                JobDeque.failGrowthOnForTests = null;
            }
        }
        assertTrue(uncaught.isEmpty(), "nothing failed: " + uncaught);
    }
}
