package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The main-thread mailbox under load, through the public API: the sleep/offer handshake that keeps a
 * waiting main thread from sleeping through a main-thread job, and many producers against one owner.
 */
class MainThreadMailboxStressTest {
    private static final int ROUNDS = TestSupport.FULL ? 200_000 : 20_000;
    /** A round that waits this long slept through its wake-up (a round takes microseconds). */
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final int PER_PRODUCER = TestSupport.FULL ? 50_000 : 5_000;

    /**
     * "Decode on a worker, upload on the main thread, continue": the main thread waits on a counter
     * while the job it waits for posts a main-thread job and joins it. The post races with the main
     * thread going to sleep in its wait; if the post's wake-up were lost, the main thread would sleep
     * until its timeout (it is the only thread that can run the upload). A timed wait that slept through
     * its wake-up still ends well (it runs the upload after waking by timeout), so lateness is checked.
     */
    @Test
    void waitingMainThreadNeverSleepsThroughAMainThreadJob() {
        // The watcher tells which wake-up was lost, read while the main thread still sleeps (its timeout
        // runs the upload, which hides the answer): the upload's (still queued), the decode fiber's
        // (upload done, decode not ended), or the main thread's own (done at zero).
        try (JobSystem jobs = TestSupport.system(2); RoundWatcher watcher = new RoundWatcher(WAIT.dividedBy(2))) {
            jobs.bindMainThread();
            Thread main = Thread.currentThread();
            for (int i = 0; i < ROUNDS; i++) {
                int round = i;
                Counter done = new Counter("round " + i);
                AtomicReference<Thread> ranOn = new AtomicReference<>();
                AtomicReference<JobHandle<Integer>> upload = new AtomicReference<>();
                jobs.run(Priority.NORMAL, "decode", () -> {
                    JobHandle<Integer> h = jobs.onMainThread("upload", () -> {
                        ranOn.set(Thread.currentThread());
                        return round;
                    });
                    upload.set(h);
                    assertEquals(round, h.join());
                }, done);
                watcher.begin(() -> "upload " + upload.get() + " ran on " + ranOn.get() + ", done=" + done.value()
                        + "\n" + jobs.schedulerForTests().stateForHangReport());
                long t0 = System.nanoTime();
                boolean reached = done.await(WAIT);
                watcher.end();
                if (!reached || System.nanoTime() - t0 >= WAIT.toNanos()) {
                    fail("round " + i + ": the waiting main thread slept through the upload job until its " + WAIT
                            + " timeout (reached: " + reached + ")\n" + watcher.report());
                }
                assertSame(main, ranOn.get(), "round " + i + ": the upload ran off the main thread");
                assertEquals(0, done.value());
            }
        }
    }

    /**
     * A daemon that, once a round has run longer than {@code late}, records the round's state and a
     * thread dump (once).
     */
    private static final class RoundWatcher implements AutoCloseable {
        private final AtomicReference<Supplier<String>> round = new AtomicReference<>();
        private volatile long beganNanos;
        private volatile String report;
        private final Thread thread;

        RoundWatcher(Duration late) {
            thread = Thread.ofPlatform().daemon().name("round-watcher").start(() -> {
                try {
                    while (true) {
                        Thread.sleep(20);
                        Supplier<String> state = round.get();
                        if (state != null && report == null && System.nanoTime() - beganNanos > late.toNanos()) {
                            report = "after " + late + " of the wait: " + state.get() + "\n" + TestSupport.threadDump();
                        }
                    }
                } catch (InterruptedException closed) {
                    // close()
                }
            });
        }

        void begin(Supplier<String> state) {
            beganNanos = System.nanoTime();
            round.set(state);                 // after beganNanos: the watcher reads them in the other order
        }

        void end() {
            round.set(null);
        }

        String report() {
            return report != null ? report : "(no state recorded while it waited)";
        }

        @Override
        public void close() {
            thread.interrupt();
        }
    }

    /** Many producers, one owner: every job runs exactly once, on the owner, in its producer's order. */
    @Test
    void manyProducersOneOwnerEveryJobRunsOnceInProducerOrder() throws Exception {
        int producers = 3;
        try (JobSystem jobs = TestSupport.system(1)) {
            jobs.bindMainThread();
            Thread main = Thread.currentThread();
            int[] ranCount = new int[producers * PER_PRODUCER];      // owner only
            int[] lastSeq = {-1, -1, -1};                             // owner only
            List<String> violations = new ArrayList<>();              // owner only
            List<List<JobHandle<Integer>>> handles = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                List<JobHandle<Integer>> mine = new ArrayList<>(PER_PRODUCER);
                handles.add(mine);
                threads.add(new Thread(() -> {
                    for (int i = 0; i < PER_PRODUCER; i++) {
                        int seq = i;
                        int id = producer * PER_PRODUCER + i;
                        mine.add(jobs.onMainThread(() -> {
                            if (Thread.currentThread() != main) {
                                violations.add("job " + id + " ran on " + Thread.currentThread());
                            }
                            if (seq <= lastSeq[producer]) {
                                violations.add("producer " + producer + ": #" + seq + " ran after #" + lastSeq[producer]);
                            }
                            lastSeq[producer] = seq;
                            ranCount[id]++;
                            return id;
                        }));
                    }
                }, "producer-" + p));
            }
            threads.forEach(Thread::start);
            long deadline = System.nanoTime() + TestSupport.LONG.toNanos();
            int ran = 0;
            while (ran < producers * PER_PRODUCER) {
                ran += jobs.runMainThreadJobs(Duration.ofMillis(1).toNanos());
                if (System.nanoTime() > deadline) {
                    fail("ran " + ran + " of " + producers * PER_PRODUCER + " main-thread jobs in " + TestSupport.LONG
                            + "\n" + TestSupport.threadDump());
                }
            }
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(0, jobs.runMainThreadJobs(0), "more jobs ran than were posted");
            assertTrue(violations.isEmpty(), () -> violations.subList(0, Math.min(10, violations.size())).toString());
            for (int id = 0; id < ranCount.length; id++) {
                assertEquals(1, ranCount[id], "job " + id + " ran " + ranCount[id] + " times");
            }
            for (int p = 0; p < producers; p++) {
                for (int i = 0; i < PER_PRODUCER; i++) {
                    JobHandle<Integer> h = handles.get(p).get(i);
                    assertTrue(h.isDone(), h::toString);
                    assertEquals(p * PER_PRODUCER + i, h.getNow(-1));
                }
            }
        }
    }

    /**
     * A main-thread job cancelled before it ran is not completed again when the owner drains the mailbox
     * after {@code shutdownNow()}. Regression test: {@code admit} saw STOPPING and called
     * {@code cancelledBeforeStart}, which took state CANCELLED as its own to complete, so the handle's
     * {@code done} counter went down twice and {@code awaitTermination} on the main thread threw
     * "decremented below zero".
     */
    @Test
    void cancelledMainThreadJobIsCompletedOnlyOnceAfterShutdownNow() throws Exception {
        JobSystem jobs = TestSupport.system(1);
        jobs.bindMainThread();
        JobHandle<Integer> h = jobs.onMainThread(() -> 1);
        assertTrue(h.cancel());
        assertTrue(h.isCancelled());
        jobs.shutdownNow();
        assertTrue(jobs.awaitTermination(TestSupport.LONG));
        assertTrue(h.isCancelled());
    }

    /**
     * Every test here makes the test thread a main thread; surefire runs all test classes on that one
     * thread, so a test that failed before its system unbound it must not leave it bound for the next.
     */
    @AfterEach
    void unbindTheTestThread() {
        MainThreadMailbox stale = MainThreadMailbox.ownedByCurrentThread();
        if (stale != null) {
            stale.unbind();
        }
    }
}
