package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.Counter;
import dev.weft.JobSystem;
import dev.weft.Priority;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The decode lane never runs more than its limit at once, runs everything it was given, and lets frame
 * work in between the tasks it drains.
 */
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

    /**
     * A drain job runs queued tasks back to back, and a task may be one native call that cannot yield
     * (a PNG decode). On one worker, a FRAME job submitted while the drain is on its first task runs
     * right after that task, not after the whole queue: the drain checkpoints between tasks.
     */
    @Test
    void aFrameJobRunsBetweenTheTasksADrainRuns() throws Exception {
        int queued = 20;
        try (JobSystem jobs = JobSystem.builder().name("lane-frame").workers(1).waitersHelp(false).build()) {
            DecodeLane lane = new DecodeLane(jobs.newGroup("lane"), 1, 0);
            CountDownLatch holderRunning = new CountDownLatch(1);
            CountDownLatch releaseHolder = new CountDownLatch(1);
            CountDownLatch drainStarted = new CountDownLatch(1);
            AtomicInteger tasksDone = new AtomicInteger();
            // An outside thread holds the lane's one slot (it runs its task inline), so the tasks below
            // queue up and a drain job on the worker runs them all once the slot is given back.
            Thread holder = Thread.ofPlatform().start(() -> call(lane, () -> {
                holderRunning.countDown();
                await(releaseHolder);
                return 0;
            }));
            assertTrue(holderRunning.await(10, TimeUnit.SECONDS));
            List<Thread> callers = new ArrayList<>();
            for (int i = 0; i < queued; i++) {
                callers.add(Thread.ofPlatform().start(() -> call(lane, () -> {
                    drainStarted.countDown();
                    spin(2_000_000);                  // 2 ms of work with no checkpoint in it
                    return tasksDone.incrementAndGet();
                })));
            }
            while (lane.queued() < queued) {
                Thread.sleep(1);
            }
            releaseHolder.countDown();
            assertTrue(drainStarted.await(10, TimeUnit.SECONDS));
            int doneAtSubmit = tasksDone.get();
            int doneWhenFrameRan = jobs.submit(Priority.FRAME, "frame", tasksDone::get).join();
            for (Thread t : callers) {
                t.join();
            }
            holder.join();
            assertEquals(queued, tasksDone.get(), "every task ran");
            // The task in progress ends, and at worst the next one if its checkpoint came just before
            // the submit was published; without a checkpoint between tasks the FRAME job waits for all.
            int waitedFor = doneWhenFrameRan - doneAtSubmit;
            assertTrue(waitedFor <= 2, "the FRAME job waited for " + waitedFor + " more of " + queued
                    + " queued tasks (" + doneAtSubmit + " were done at its submit); it should run after the"
                    + " task in progress");
        }
    }

    private static void call(DecodeLane lane, java.util.concurrent.Callable<Integer> work) {
        try {
            lane.call(work, r -> { });
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
