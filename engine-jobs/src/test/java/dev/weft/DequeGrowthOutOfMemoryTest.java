package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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

    /**
     * shutdownNow while children wait on the overflow list (the worker is held by their parent): each queued
     * child is cancelled and listed, none runs. The drain used to see the ring only: it listed the 256
     * children there, and the 744 on the overflow list ran once the parent let go, after shutdownNow,
     * missing from its list although they were queued when it was called.
     */
    @Test
    void shutdownNowCancelsAndListsTheJobsOnTheOverflowList() throws Exception {
        ConcurrentLinkedQueue<String> uncaught = new ConcurrentLinkedQueue<>();
        JobSystem jobs = system(uncaught);
        try {
            JobDeque.failGrowthOnForTests = workerThread(jobs);
            Counter children = new Counter("children");
            AtomicInteger ran = new AtomicInteger();
            CountDownLatch submitted = new CountDownLatch(1);
            AtomicBoolean letGo = new AtomicBoolean();
            jobs.run(Priority.NORMAL, "parent", () -> {
                for (int i = 0; i < CHILDREN; i++) {
                    jobs.run(Priority.NORMAL, "child", ran::incrementAndGet, children);
                }
                submitted.countDown();
                while (!letGo.get()) {
                    Thread.onSpinWait();           // holds the one worker: no child can start meanwhile
                }
            }, null);
            assertTrue(submitted.await(10, TimeUnit.SECONDS), "the parent submitted its children");
            List<JobInfo> cancelled;
            try {
                cancelled = jobs.shutdownNow();
            } finally {
                letGo.set(true);
                JobDeque.failGrowthOnForTests = null;
            }
            assertTrue(jobs.awaitTermination(Duration.ofSeconds(10)), "terminated");
            long listedChildren = cancelled.stream().filter(j -> "child".equals(j.name())).count();
            assertEquals(0, ran.get(), "no queued child ran after shutdownNow (" + listedChildren + " listed)");
            assertEquals(CHILDREN, listedChildren, "every queued child is in shutdownNow's list");
            assertEquals(0, children.value(), "every child completed its counter");
        } finally {
            JobDeque.failGrowthOnForTests = null;
            letGoAndClose(jobs);
        }
        assertTrue(uncaught.isEmpty(), "nothing failed: " + uncaught);
    }

    private static void letGoAndClose(JobSystem jobs) {
        jobs.shutdownNow();
        jobs.close();
    }

    /**
     * Two workers; the parent's worker cannot grow its ring, and the parent keeps that worker busy until its
     * children have run. While it submitted them, a blocker held the other worker, so 744 went to the
     * overflow list. Only the owner could take them, so the other worker, free once the blocker ended, spun
     * on "work visible" and took nothing: the children counter stayed at 744 until the parent gave up. Now
     * the idle worker takes the list and runs them.
     */
    @Test
    void anIdleWorkerRunsTheOverflowListOfABusyOwner() throws Exception {
        ConcurrentLinkedQueue<String> uncaught = new ConcurrentLinkedQueue<>();
        try (JobSystem jobs = JobSystem.builder().workers(2).name("growth2")
                .onUncaughtFailure((job, t) -> uncaught.add(job + ": " + t)).build()) {
            Counter children = new Counter("children");
            AtomicInteger ran = new AtomicInteger();
            CountDownLatch blocking = new CountDownLatch(1);
            AtomicBoolean allSubmitted = new AtomicBoolean();
            AtomicBoolean giveUp = new AtomicBoolean();
            Counter both = new Counter("blocker and parent");
            jobs.run(Priority.NORMAL, "blocker", () -> {
                blocking.countDown();
                while (!allSubmitted.get()) {
                    Thread.onSpinWait();           // holds the other worker while the parent submits
                }
            }, both);
            jobs.run(Priority.NORMAL, "parent", () -> {
                while (blocking.getCount() != 0) {
                    Thread.onSpinWait();           // the blocker runs on the other worker (we hold ours)
                }
                JobDeque.failGrowthOnForTests = dev.weft.internal.FiberSupport.currentCarrier();
                try {
                    for (int i = 0; i < CHILDREN; i++) {
                        jobs.run(Priority.NORMAL, "child", ran::incrementAndGet, children);
                    }
                } finally {
                    JobDeque.failGrowthOnForTests = null;
                    allSubmitted.set(true);
                }
                while (children.value() != 0 && !giveUp.get()) {
                    Thread.onSpinWait();           // a long job: its worker takes nothing meanwhile
                }
            }, both);
            boolean reached;
            try {
                while (!allSubmitted.get()) {
                    Thread.onSpinWait();               // the counter holds every child before we wait on it
                }
                reached = children.await(Duration.ofSeconds(5));
            } finally {
                giveUp.set(true);
            }
            assertTrue(reached, "the children ran while their owner was busy (value " + children.value() + ")");
            assertTrue(both.await(Duration.ofSeconds(10)));
            assertEquals(CHILDREN, ran.get());
        }
        assertTrue(uncaught.isEmpty(), "nothing failed: " + uncaught);
    }
}
