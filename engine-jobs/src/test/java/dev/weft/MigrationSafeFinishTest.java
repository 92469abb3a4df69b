package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a job's completion runs (the uncaught-failure handler, CompletableFuture dependents) is user code:
 * it may park and resume the fiber on another worker. Whatever Weft touches after it (the free list the
 * node goes back to, statistics) must be the worker the fiber is on then. A node pushed onto another
 * worker's free list (a plain ArrayDeque its owner is using) is a node handed out twice: a job lost or run
 * twice. Owner-thread assertions (on under tests) make a wrong-thread access fail loudly.
 */
class MigrationSafeFinishTest {
    private static final int JOBS = TestSupport.FULL ? 20_000 : 2_000;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void failuresWhoseHandlerParksOnAContendedLockRunEveryJobExactlyOnce(int workers) {
        ReentrantLock logLock = new ReentrantLock();       // a logger's lock, contended by every handler
        AtomicInteger handled = new AtomicInteger();
        AtomicIntegerArray ran = new AtomicIntegerArray(JOBS * 2);
        JobSystem jobs = JobSystem.builder().name("migrate").workers(workers)
                .onUncaughtFailure((job, failure) -> {
                    logLock.lock();
                    try {
                        sleepMicros(50);                   // parks the fiber while holding the lock
                        handled.incrementAndGet();
                    } finally {
                        logLock.unlock();
                    }
                }).build();
        try {
            Counter fine = new Counter("fine jobs");
            TestSupport.join(jobs.submit(() -> {
                for (int i = 0; i < JOBS; i++) {
                    int failing = i;
                    int ok = JOBS + i;
                    jobs.run(() -> {                       // pooled, fire-and-forget: its failure goes to the handler
                        ran.incrementAndGet(failing);
                        throw new IllegalStateException("job " + failing + " fails on purpose");
                    });
                    jobs.run(Priority.NORMAL, "ok " + ok, () -> ran.incrementAndGet(ok), fine);   // reuses nodes
                }
                return null;
            }));
            TestSupport.await(fine);
            TestSupport.eventually(() -> "every failure handled: " + handled.get() + " of " + JOBS + " "
                    + jobs.stats(), () -> handled.get() == JOBS);
            assertRanOnce(ran);
        } finally {
            TestSupport.closeWithin(jobs);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void handlesWhoseFutureDependentsParkRunEveryJobExactlyOnce(int workers) {
        ReentrantLock lock = new ReentrantLock();
        AtomicInteger dependentsRan = new AtomicInteger();
        AtomicIntegerArray ran = new AtomicIntegerArray(JOBS * 2);
        JobSystem jobs = TestSupport.system(workers);
        try {
            Counter pooled = new Counter("pooled jobs");
            List<CompletableFuture<Void>> dependents = TestSupport.join(jobs.submit(() -> {
                List<CompletableFuture<Void>> ds = new ArrayList<>();
                for (int i = 0; i < JOBS; i++) {
                    int h = i;
                    int p = JOBS + i;
                    JobHandle<Integer> handle = jobs.submit(() -> {
                        ran.incrementAndGet(h);
                        return h;
                    });
                    // Registered before the job ends (usually): runs inside its completion, on its fiber.
                    ds.add(handle.toCompletableFuture().thenAccept(v -> {
                        lock.lock();
                        try {
                            sleepMicros(20);
                            dependentsRan.incrementAndGet();
                        } finally {
                            lock.unlock();
                        }
                    }));
                    jobs.run(Priority.NORMAL, "pooled " + p, () -> ran.incrementAndGet(p), pooled);
                }
                return ds;
            }));
            TestSupport.await(pooled);
            CompletableFuture.allOf(dependents.toArray(CompletableFuture[]::new))
                    .orTimeout(TestSupport.LONG.toSeconds(), TimeUnit.SECONDS).join();
            assertEquals(JOBS, dependentsRan.get());
            assertRanOnce(ran);
        } finally {
            TestSupport.closeWithin(jobs);
        }
    }

    private static void assertRanOnce(AtomicIntegerArray ran) {
        for (int i = 0; i < ran.length(); i++) {
            assertEquals(1, ran.get(i), "job " + i + " ran " + ran.get(i) + " times");
        }
    }

    private static void sleepMicros(long micros) {
        try {
            Thread.sleep(0, (int) (micros * 1000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
