package dev.weft;

import static dev.weft.TestSupport.LONG;
import static dev.weft.TestSupport.system;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JDK's stop requests on the {@code asExecutorService()} view, found by a probe that moved an
 * ExecutorService codebase to Weft: {@code cancel(true)} and {@code shutdownNow()} interrupt a running
 * task (they only asked it the Weft way, so a consumer blocked in take() never ended and close() hung),
 * never another job of the same fiber; shutdownNow lists a Callable that never ran; reports name the
 * caller's task, not Weft's adapters.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExecutorServiceInterruptTest {

    /** A task class of the caller's own, so its name can be looked for in reports. */
    static final class SaveGameTask implements Callable<String> {
        final CountDownLatch started = new CountDownLatch(1);

        @Override
        public String call() throws InterruptedException {
            started.countDown();
            return new LinkedBlockingQueue<String>().take();    // the consumer idiom: blocks until interrupted
        }
    }

    @Test
    void cancelTrueInterruptsTheRunningTaskAndNotTheNextJobOnItsFiber() throws Exception {
        try (JobSystem jobs = system(1)) {
            ExecutorService pool = jobs.asExecutorService();
            SaveGameTask consumer = new SaveGameTask();
            Future<String> f = pool.submit(consumer);
            consumer.started.await();
            assertFalse(f.cancel(true), "running: not done until it ends, so not cancelled yet (as documented)");
            assertThrows(CancellationException.class, () -> f.get(LONG.toSeconds(), TimeUnit.SECONDS),
                    "the interrupt ended the task, which honoured the cancellation");
            assertTrue(f.isCancelled());
            // One worker, so the next job very likely runs on the same pooled fiber: it must not see the interrupt.
            for (int i = 0; i < 100; i++) {
                assertFalse(jobs.submit(() -> Thread.currentThread().isInterrupted()).join(LONG),
                        "an interrupt meant for the cancelled task reached job " + i);
            }
            pool.shutdown();
            assertTrue(pool.awaitTermination(LONG.toSeconds(), TimeUnit.SECONDS));
        }
    }

    /**
     * cancel(true) racing the end of a task, many times: the interrupt reaches the task or nobody, never
     * the next job the fiber runs (ViewTask's handshake: the runner waits out an interrupting canceller and
     * clears its status before it leaves). CI runs 2,000 rounds; -Dweft.stress=full 50,000.
     */
    @Test
    void cancelTrueRacingTheEndOfATaskNeverInterruptsTheNextJob() throws Exception {
        int rounds = TestSupport.FULL ? 50_000 : 2_000;
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        int leaks = 0;
        try (JobSystem jobs = system(1)) {
            ExecutorService pool = jobs.asExecutorService();
            for (int i = 0; i < rounds; i++) {
                long taskNanos = random.nextLong(20_000);
                Future<?> task = pool.submit(() -> spin(taskNanos));
                spin(random.nextLong(20_000));
                task.cancel(true);
                if (jobs.submit(() -> Thread.currentThread().isInterrupted()).join(LONG)) {
                    leaks++;
                }
                while (!task.isDone()) {
                    Thread.onSpinWait();
                }
            }
            pool.shutdown();
        }
        assertEquals(0, leaks, "jobs that started with an interrupt meant for a cancelled task");
    }

    private static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    @Test
    void shutdownNowInterruptsRunningTasksAndListsTheCallablesThatNeverRan() throws Exception {
        List<Throwable> uncaught = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (JobSystem jobs = JobSystem.builder().workers(1).onUncaughtFailure((job, t) -> uncaught.add(t)).build()) {
            ExecutorService pool = jobs.asExecutorService();
            CountDownLatch spinning = new CountDownLatch(1);
            Future<?> running = pool.submit(() -> {          // holds the only worker (a take() would park and free it)
                spinning.countDown();
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.onSpinWait();
                }
                throw new InterruptedException("stopped by shutdownNow's interrupt");
            });
            spinning.await();
            SaveGameTask queued = new SaveGameTask();
            Future<String> neverRan = pool.submit(queued);
            List<Runnable> listed = pool.shutdownNow();
            assertEquals(1, listed.size(), "the queued Callable is listed: " + listed);
            assertTrue(neverRan.isCancelled());
            assertTrue(pool.awaitTermination(LONG.toSeconds(), TimeUnit.SECONDS),
                    "the spinning task, never interrupted, kept the view from terminating");
            assertTrue(running.isDone());
            assertEquals(List.of(), uncaught, "an interrupt that ends a cancelled task is no failure");
        }
    }

    @Test
    void reportsNameTheCallersTaskAndTheTimeoutItWasGiven() throws Exception {
        AtomicReference<String> failedJob = new AtomicReference<>();
        try (JobSystem jobs = JobSystem.builder().workers(1).onUncaughtFailure((job, t) -> failedJob.set(job)).build()) {
            ExecutorService pool = jobs.asExecutorService();
            SaveGameTask consumer = new SaveGameTask();
            Future<String> f = pool.submit(consumer);
            consumer.started.await();
            TimeoutException late = assertThrows(TimeoutException.class, () -> f.get(1, TimeUnit.MILLISECONDS));
            assertTrue(late.getMessage().contains("SaveGameTask") && late.getMessage().contains("1 milliseconds"),
                    late.getMessage());
            f.cancel(true);
            Runnable failing = new Runnable() {
                @Override
                public void run() {
                    throw new IllegalStateException("disk full");
                }
            };
            jobs.execute(failing);
            TestSupport.eventually("the failure was reported", () -> failedJob.get() != null);
            assertEquals(failing.getClass().getName(), failedJob.get());
            pool.shutdown();
        }
    }
    /**
     * {@code ExecutorService.close()} (try-with-resources on the view) waits in {@code awaitTermination}
     * and, interrupted, calls {@code shutdownNow()}: that is how a game's exit stops a library's consumer
     * that only an interrupt ends. The view's awaitTermination waited uninterruptibly (a Weft wait), so an
     * interrupted close() or awaitTermination(1 h) kept waiting until the task ended by itself: a probe's
     * thread was still in it 5 s after its interrupt, both ways, where a fixed thread pool returned in
     * 200 ms.
     */
    @Test
    void anInterruptedAwaitTerminationOrCloseOfTheViewReturnsAndCloseStopsTheTasks() throws Exception {
        try (JobSystem jobs = system(2)) {
            for (boolean viaClose : new boolean[] {false, true}) {
                ExecutorService pool = jobs.asExecutorService();
                try {
                    closeInterrupted(pool, viaClose);
                } finally {
                    pool.shutdownNow();                  // on a failure, the consumer must not keep jobs.close() waiting
                }
            }
        }
    }

    private static void closeInterrupted(ExecutorService pool, boolean viaClose) throws Exception {
        SaveGameTask consumer = new SaveGameTask();
        Future<String> f = pool.submit(consumer);
        consumer.started.await();
        AtomicReference<String> outcome = new AtomicReference<>("still waiting");
        Thread closer = new Thread(() -> {
            try {
                if (viaClose) {
                    pool.close();
                    outcome.set("closed");
                } else {
                    pool.shutdown();
                    outcome.set("returned " + pool.awaitTermination(1, TimeUnit.HOURS));
                }
            } catch (InterruptedException e) {
                outcome.set("interrupted");
            }
        });
        closer.start();
        Thread.sleep(100);                       // the closer is in its wait by then (or soon after)
        closer.interrupt();
        closer.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(closer.isAlive(), (viaClose ? "close()" : "awaitTermination") + " ignored its interrupt");
        assertEquals(viaClose ? "closed" : "interrupted", outcome.get());
        if (viaClose) {
            assertTrue(pool.isTerminated() && f.isDone(), "close() stopped the consumer with shutdownNow");
        } else {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(LONG.toSeconds(), TimeUnit.SECONDS));
        }
    }
}
