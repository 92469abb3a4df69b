package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code invokeAll} on the {@code asExecutorService()} view while a {@code shutdownNow()} (the view's or the
 * job system's) cancels its queued tasks: it returns, with those tasks' futures cancelled. It waited for ever
 * on the FutureTasks AbstractExecutorService made for them, which nobody would run or cancel (a probe: 3
 * of 50 view shutdownNow rounds left an invokeAll caller hung).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExecutorInvokeAllShutdownTest {

    @Test
    void invokeAllReturnsWhenTheViewsShutdownNowCancelsItsQueuedTasks() throws Exception {
        invokeAllWhileStopped(true);
    }

    @Test
    void invokeAllReturnsWhenTheJobSystemsShutdownNowCancelsItsQueuedTasks() throws Exception {
        invokeAllWhileStopped(false);
    }

    private static void invokeAllWhileStopped(boolean viewShutdownNow) throws Exception {
        JobSystem jobs = TestSupport.system(1);
        ExecutorService view = jobs.asExecutorService();
        AtomicBoolean release = new AtomicBoolean();
        CountDownLatch spinning = new CountDownLatch(1);
        jobs.run(() -> {
            spinning.countDown();
            while (!release.get()) {
                Thread.onSpinWait();       // holds the only worker without parking: the tasks stay queued
            }
        });
        // Only then the tasks: submitted while the worker was still on its way to the spinner, they could
        // be taken with it from the injection queue and run first (its own deque pops LIFO), or be in its
        // hands, not in a queue, when shutdownNow lists what never ran (2 of 6 rounds failed so).
        assertTrue(spinning.await(TestSupport.LONG.toMillis(), TimeUnit.MILLISECONDS), "the spinner started");
        AtomicInteger ran = new AtomicInteger();
        Callable<Integer> task = ran::incrementAndGet;
        AtomicReference<List<Future<Integer>>> results = new AtomicReference<>();
        Thread invoker = Thread.ofPlatform().name("invoker").start(() -> {
            try {
                results.set(view.invokeAll(List.of(task, task)));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        TestSupport.eventually("invokeAll waits on its queued tasks", () -> invoker.getState() == Thread.State.WAITING
                && java.util.Arrays.stream(invoker.getStackTrace()).anyMatch(f -> f.getMethodName().equals("awaitDone")));
        if (viewShutdownNow) {
            assertEquals(2, view.shutdownNow().size(), "both tasks listed as never run");
        } else {
            assertEquals(2, jobs.shutdownNow().size(), "both jobs listed as never run");
        }
        release.set(true);
        invoker.join(TestSupport.LONG.toMillis());
        assertFalse(invoker.isAlive(), "invokeAll still waits " + TestSupport.LONG + " after shutdownNow\n" + TestSupport.threadDump());
        for (Future<Integer> f : results.get()) {
            assertTrue(f.isCancelled(), "a task that never ran is cancelled: " + f);
        }
        assertEquals(0, ran.get(), "neither task ran");
        TestSupport.closeWithin(jobs);
    }
}
