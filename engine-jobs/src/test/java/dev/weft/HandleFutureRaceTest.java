package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/** Two first calls to {@code toCompletableFuture()} racing each other get one future, and it completes. */
class HandleFutureRaceTest {
    private static final int ROUNDS = TestSupport.FULL ? 100_000 : 20_000;

    @Test
    void racingFirstCallsGetTheSameFutureAndItCompletes() throws Exception {
        try (JobSystem jobs = TestSupport.system(1)) {
            jobs.bindMainThread();
            // Main-thread jobs stay unfinished until this thread runs them: unfinished handles, no fibers.
            List<JobHandle<Integer>> handles = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                int v = i;
                handles.add(jobs.onMainThread(() -> v));
            }
            AtomicReferenceArray<CompletableFuture<Integer>> other = new AtomicReferenceArray<>(ROUNDS);
            CyclicBarrier start = new CyclicBarrier(2);
            Thread racer = new Thread(() -> {
                try {
                    for (int i = 0; i < ROUNDS; i++) {
                        start.await();
                        other.set(i, handles.get(i).toCompletableFuture());
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }, "racer");
            racer.start();
            List<CompletableFuture<Integer>> mine = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                start.await();
                mine.add(handles.get(i).toCompletableFuture());
            }
            racer.join(TestSupport.LONG.toMillis());
            int differing = 0;
            for (int i = 0; i < ROUNDS; i++) {
                if (mine.get(i) != other.get(i)) {
                    differing++;
                }
            }
            assertEquals(0, differing, differing + " of " + ROUNDS + " handles published two futures");
            while (jobs.runMainThreadJobs(Long.MAX_VALUE) > 0) {
                // run them all: every future completes with its handle's value
            }
            for (int i = 0; i < ROUNDS; i++) {
                assertTrue(other.get(i).isDone(), "future " + i + " never completed");
                assertEquals(i, other.get(i).join());
                assertSame(other.get(i), handles.get(i).toCompletableFuture());
            }
        }
    }
}
