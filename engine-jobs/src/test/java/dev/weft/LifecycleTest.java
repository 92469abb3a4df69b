package dev.weft;

import static dev.weft.TestSupport.LONG;
import static dev.weft.TestSupport.await;
import static dev.weft.TestSupport.closeWithin;
import static dev.weft.TestSupport.eventually;
import static dev.weft.TestSupport.join;
import static dev.weft.TestSupport.system;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Results, cancellation, shutdown, locks and misuse (main-thread jobs: MainThreadJobsTest). */
@Timeout(120)
class LifecycleTest {

    /** Occupies every worker until the returned counter is decremented (busy, not parked). */
    private static Counter blockAllWorkers(JobSystem jobs) {
        Counter gate = new Counter("gate");
        gate.add(1);
        Counter started = new Counter("started");
        started.add(jobs.workerCount());
        for (int i = 0; i < jobs.workerCount(); i++) {
            jobs.run(Priority.FRAME, "blocker", () -> {
                started.decrement();
                while (gate.value() > 0) {
                    Thread.onSpinWait();
                }
            }, null);
        }
        await(started);
        return gate;
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void handlesCarryValuesFailuresAndTimeouts(int workers) throws Exception {
        try (JobSystem jobs = system(workers)) {
            assertEquals("hello", join(jobs.submit(() -> "hello")));
            JobHandle<Object> bad = jobs.submit(Priority.NORMAL, "load texture", () -> {
                throw new java.io.FileNotFoundException("grass.png");
            });
            JobFailedException e = assertThrows(JobFailedException.class, bad::join);
            assertTrue(e.getMessage().contains("load texture"), e.getMessage());
            assertTrue(bad.isDone());
            assertFalse(bad.isCancelled());

            Counter gate = new Counter();
            gate.add(1);
            JobHandle<Integer> slow = jobs.submit(() -> {
                gate.await();
                return 7;
            });
            assertThrows(TimeoutException.class, () -> slow.join(Duration.ofMillis(50)));
            gate.decrement();
            assertEquals(7, join(slow));

            CompletableFuture<String> f = jobs.submit(() -> "cf").toCompletableFuture();
            assertEquals("cf", f.get(LONG.toSeconds(), TimeUnit.SECONDS));
            CompletableFuture<Object> ff = bad.toCompletableFuture();
            ExecutionException ee = assertThrows(ExecutionException.class, ff::get);
            assertInstanceOf(JobFailedException.class, ee.getCause());
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void aJobCancelledBeforeItStartsNeverRunsButCompletesItsCounter(int workers) {
        try (JobSystem jobs = system(workers)) {
            Counter gate = blockAllWorkers(jobs);
            AtomicInteger ran = new AtomicInteger();
            Counter c = new Counter("level");
            JobHandle<Integer> h = jobs.submit(Priority.NORMAL, "stale", () -> ran.incrementAndGet(), c);
            assertTrue(h.cancel());
            assertTrue(h.isCancelled());
            assertTrue(c.isDone(), "the counter was decremented by the cancellation");
            gate.decrement();
            assertThrows(JobCancelledException.class, h::join);
            closeWithin(jobs);
            assertEquals(0, ran.get());
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void cancelRacingStartRunsOrCancelsExactlyOnce(int workers) {
        try (JobSystem jobs = system(workers)) {
            int n = TestSupport.FULL ? 200_000 : 20_000;
            AtomicIntegerArray ran = new AtomicIntegerArray(n);
            Counter all = new Counter("all");
            JobHandle<?>[] hs = new JobHandle<?>[n];
            for (int i = 0; i < n; i++) {
                int id = i;
                hs[i] = jobs.submit(Priority.NORMAL, "j", () -> ran.incrementAndGet(id), all);
                if ((i & 1) == 0) {
                    hs[i / 2].cancel();          // cancel an older one while workers may be starting it
                }
            }
            await(all);
            int cancelled = 0;
            for (int i = 0; i < n; i++) {
                boolean c = hs[i].isCancelled();
                int r = ran.get(i);
                assertTrue(hs[i].isDone());
                assertTrue((c && r == 0) || (!c && r == 1), "job " + i + ": cancelled=" + c + " ran=" + r);
                cancelled += c ? 1 : 0;
            }
            assertEquals(0, all.value());
            System.out.printf("cancel vs start: %d jobs, %d cancelled, %d ran%n", n, cancelled, n - cancelled);
        }
    }

    /**
     * A counter reaching zero means every job it counts has ended: its handle is done and its
     * CompletableFuture completed. The waiter spins on the counter (no park, no wake-up latency) so
     * it looks at the handle the moment the counter turns zero; a handle that completes its counter
     * before itself fails here within a few hundred rounds.
     */
    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void aCounterAtZeroMeansEveryHandleItCountsIsDone(int workers) {
        try (JobSystem jobs = system(workers)) {
            int rounds = TestSupport.FULL ? 200_000 : 20_000;
            for (int round = 0; round < rounds; round++) {
                Counter c = new Counter("one");
                JobHandle<Integer> h = jobs.submit(Priority.NORMAL, "j", () -> 1, c);
                CompletableFuture<Integer> f = (round & 1) == 0 ? h.toCompletableFuture() : null;
                while (!c.isDone()) {
                    Thread.onSpinWait();
                }
                int r = round;
                assertTrue(h.isDone(), () -> "round " + r + ": the counter was at zero before its job's "
                        + "handle was done");
                assertEquals(1, h.getNow(-1), () -> "round " + r + ": " + h);
                if (f != null) {
                    assertTrue(f.isDone(), () -> "round " + r + ": counter at zero, future not complete");
                }
            }
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void aRunningJobSeesCancellationAndAParkedOneIsWoken(int workers) {
        try (JobSystem jobs = system(workers)) {
            Counter started = new Counter();
            started.add(1);
            JobHandle<Integer> polling = jobs.submit(() -> {
                started.decrement();
                int spins = 0;
                while (!Jobs.isCancelled()) {
                    spins++;
                    Thread.onSpinWait();
                }
                Jobs.checkCancelled();
                return spins;
            });
            await(started);
            assertFalse(polling.cancel(), "already running: cancel asks, it cannot prevent");
            assertThrows(JobCancelledException.class, polling::join);
            assertTrue(polling.isCancelled(), "ended by honouring the cancellation");

            Counter never = new Counter("never");
            never.add(1);
            JobHandle<Object> parked = jobs.submit(() -> {
                never.await();
                return null;
            });
            eventually("parked", () -> jobs.stats().fibersParked() == 1);
            parked.cancel();
            JobCancelledException e = assertThrows(JobCancelledException.class, parked::join);
            assertTrue(parked.isCancelled(), e.getMessage());
            assertEquals(1, never.value(), "the counter it waited on is untouched");
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void cancellingAGroupCancelsItsQueuedRunningAndParkedJobsAndTheirChildren(int workers) {
        try (JobSystem jobs = system(workers)) {
            JobGroup level = jobs.newGroup("level 3");
            Counter gate = blockAllWorkers(jobs);
            AtomicInteger ran = new AtomicInteger();
            Counter queued = new Counter("queued");
            for (int i = 0; i < 100; i++) {
                level.run(Priority.BACKGROUND, "stream chunk", ran::incrementAndGet, queued);
            }
            level.cancel();
            gate.decrement();
            await(queued);
            assertEquals(0, ran.get(), "no queued job of a cancelled group runs");

            JobGroup level4 = jobs.newGroup("level 4");
            Counter never = new Counter();
            never.add(1);
            Counter childRan = new Counter();
            JobHandle<Object> parent = level4.submit(() -> {
                jobs.run(() -> never.await(), childRan);        // the child inherits the group
                never.await();
                return null;
            });
            eventually("both parked", () -> jobs.stats().fibersParked() == 2);
            level4.cancel();
            assertThrows(JobCancelledException.class, parent::join);
            await(childRan);                                   // the child was woken too
            assertTrue(level4.isCancelled());
            AtomicInteger late = new AtomicInteger();
            Counter lateC = new Counter();
            level4.run(Priority.NORMAL, "late", late::incrementAndGet, lateC);
            await(lateC);
            assertEquals(0, late.get(), "a job submitted to a cancelled group is cancelled at once");
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void closeRunsEverythingSubmittedIncludingWhatJobsSubmit(int workers) {
        JobSystem jobs = system(workers);
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 1000; i++) {
            jobs.run(() -> {
                ran.incrementAndGet();
                TestSupport.sleepMillis(0);
                jobs.run(() -> {
                    ran.incrementAndGet();
                    jobs.run(ran::incrementAndGet);            // grandchildren, submitted while closing
                });
            });
        }
        jobs.close();
        assertTrue(jobs.isTerminated());
        assertEquals(3000, ran.get());
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> jobs.run(() -> { }));
        assertTrue(e.getMessage().contains("terminated"), e.getMessage());
        assertThrows(RejectedExecutionException.class, () -> jobs.submit(() -> 1));
    }

    @Test
    void submittingFromOutsideWhileClosingIsRefusedWithAClearMessage() throws Exception {
        JobSystem jobs = system(2);
        Counter gate = blockAllWorkers(jobs);
        jobs.shutdown();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> jobs.run(() -> { }));
        assertTrue(e.getMessage().contains("closing"), e.getMessage());
        assertFalse(jobs.awaitTermination(Duration.ofMillis(50)), "blockers still run");
        gate.decrement();
        assertTrue(jobs.awaitTermination(LONG));
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void shutdownNowUnderLoadAccountsForEveryJob(int workers) throws Exception {
        JobSystem jobs = system(workers);
        AtomicLong ran = new AtomicLong();
        AtomicLong submitted = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        Counter never = new Counter("never");
        never.add(1);
        int parkers = 8;
        for (int i = 0; i < parkers; i++) {
            submitted.incrementAndGet();
            jobs.run(() -> {
                ran.incrementAndGet();
                never.await();
            });
        }
        // A producer inside the system keeps submitting until it is refused.
        CountDownLatch producing = new CountDownLatch(1);
        submitted.incrementAndGet();
        jobs.run(() -> {
            ran.incrementAndGet();
            producing.countDown();
            try {
                for (long i = 0; ; i++) {      // at most ~4k queued at a time: load, not a flood
                    if (i % 4096 == 4095) {
                        Counter batch = new Counter("batch");
                        jobs.run(ran::incrementAndGet, batch);   // counted when it runs: shutdownNow may cancel it
                        submitted.incrementAndGet();
                        batch.await();
                    }
                    jobs.run(ran::incrementAndGet);
                    submitted.incrementAndGet();
                }
            } catch (RejectedExecutionException | JobCancelledException expected) {
                refused.incrementAndGet();
            }
        });
        for (int i = 0; i < 20_000; i++) {
            submitted.incrementAndGet();
            jobs.run(ran::incrementAndGet);
        }
        List<JobHandle<Integer>> mainThreadJobs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {         // nobody runs main-thread jobs here: all 10 never run
            submitted.incrementAndGet();
            mainThreadJobs.add(jobs.onMainThread("upload " + i, () -> ran.incrementAndGet() > 0 ? 1 : 0));
        }
        // The producer must be running when shutdownNow comes, or it is cancelled queued and never refused
        // (a slow or loaded machine may take longer than the sleep below to reach it).
        assertTrue(producing.await(LONG.toMillis(), TimeUnit.MILLISECONDS), "the producer never started");
        TestSupport.sleepMillis(20);           // let the load build up; parkers may or may not have started
        List<JobInfo> neverRan = jobs.shutdownNow();
        assertTrue(jobs.awaitTermination(LONG), "terminates: parked jobs were woken by cancellation");
        JobSystemStats s = jobs.stats();
        // Exact, not <=: a job is in shutdownNow's list or it ran; none is cancelled after the list is made.
        assertEquals(submitted.get(), ran.get() + neverRan.size(),
                "submitted = ran + returned by shutdownNow (" + s.jobsCancelled() + " cancelled in stats)");
        assertEquals(neverRan.size(), s.jobsCancelled(), "every cancellation is in shutdownNow's list");
        for (int i = 0; i < 10; i++) {
            String name = "upload " + i;
            assertTrue(neverRan.stream().anyMatch(j -> j.name().equals(name)), name + " missing: " + neverRan);
            assertTrue(mainThreadJobs.get(i).isCancelled(), name + " not cancelled");
        }
        assertEquals(1, refused.get(), "the producer was refused once");
        assertEquals(0, s.fibersAlive());
        assertThrows(RejectedExecutionException.class, () -> jobs.run(() -> { }));
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void aJobBlockedOnALockDoesNotStallItsWorker(int workers) {
        // JDK 25: ReentrantLock and synchronized park a virtual thread, not its carrier.
        try (JobSystem jobs = system(workers)) {
            ReentrantLock lock = new ReentrantLock();
            Object monitor = new Object();
            Counter holderMayRelease = new Counter("release");
            holderMayRelease.add(1);
            Counter holding = new Counter("holding");
            holding.add(2);
            Counter done = new Counter("done");
            jobs.run(Priority.NORMAL, "holder", () -> {
                lock.lock();
                try {
                    synchronized (monitor) {
                        holding.decrement(2);
                        holderMayRelease.await();               // parks while holding both
                    }
                } finally {
                    lock.unlock();
                }
            }, done);
            await(holding);
            AtomicInteger contenders = new AtomicInteger();
            for (int i = 0; i < workers * 3; i++) {
                jobs.run(Priority.NORMAL, "lock contender", () -> {
                    lock.lock();
                    try {
                        contenders.incrementAndGet();
                    } finally {
                        lock.unlock();
                    }
                }, done);
                jobs.run(Priority.NORMAL, "monitor contender", () -> {
                    synchronized (monitor) {
                        contenders.incrementAndGet();
                    }
                }, done);
            }
            // Every worker may now hold a blocked contender; the releaser must still get a worker.
            Counter released = new Counter();
            jobs.run(Priority.NORMAL, "releaser", holderMayRelease::decrement, released);
            await(released);
            await(done);
            assertEquals(workers * 6, contenders.get());
        }
    }

    @Test
    void misuseGetsAClearException() {
        try (JobSystem jobs = system(1)) {
            NullPointerException npe = assertThrows(NullPointerException.class, () -> jobs.run(null));
            assertTrue(npe.getMessage().contains("job is null"), npe.getMessage());
            assertThrows(NullPointerException.class, () -> jobs.submit(null));
            Counter c = new Counter("frame");
            IllegalStateException below = assertThrows(IllegalStateException.class, c::decrement);
            assertTrue(below.getMessage().contains("below zero") && below.getMessage().contains("frame"),
                    below.getMessage());
            assertEquals(0, c.value(), "the bad decrement was undone");
            c.add(1);
            NullPointerException noTimeout = assertThrows(NullPointerException.class, () -> c.await((Duration) null));
            assertTrue(noTimeout.getMessage().contains("timeout is null"), noTimeout.getMessage());
            JobHandle<Integer> done = jobs.submit(() -> 1);
            join(done);
            NullPointerException noJoinTimeout = assertThrows(NullPointerException.class, () -> done.join(null));
            assertTrue(noJoinTimeout.getMessage().contains("timeout is null"), "same on a done handle: "
                    + noJoinTimeout.getMessage());
            c.decrement();
            IllegalStateException outside = assertThrows(IllegalStateException.class, Jobs::workerIndex);
            assertTrue(outside.getMessage().contains("only inside a job"), outside.getMessage());
            assertFalse(Jobs.inFiber());
            assertFalse(Jobs.isCancelled());
            JobHandle<?>[] self = new JobHandle<?>[1];
            Counter ready = new Counter();
            ready.add(1);
            self[0] = jobs.submit(() -> {
                ready.await();
                return self[0].join();
            });
            ready.decrement();
            JobFailedException e = assertThrows(JobFailedException.class, () -> join(self[0]));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("joins its own handle"), e.getCause().getMessage());
            assertThrows(IllegalArgumentException.class, () -> jobs.parallelFor(0, 10, 0, (s, en, w) -> { }));
            assertThrows(IllegalArgumentException.class, () -> JobSystem.builder().workers(0));
            Thread other = new Thread(() -> {
                IllegalStateException wrongThread = assertThrows(IllegalStateException.class,
                        () -> jobs.runMainThreadJobs(1));
                assertTrue(wrongThread.getMessage().contains("main-thread jobs"), wrongThread.getMessage());
            });
            jobs.bindMainThread();
            other.start();
            try {
                other.join();
            } catch (InterruptedException ex) {
                throw new AssertionError(ex);
            }
        }
    }

    /**
     * A job that a handle's body runs inline (its join of a local child) and that joins that handle: the
     * handle is on the joiner's stack, one level down, so the join is refused instead of waiting for ever.
     * One worker and no helping waiter, so the child is still local when the handle joins it.
     */
    @Test
    void aJobRunInsideAHandlesBodyThatJoinsTheHandleIsRefused() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            JobHandle<?>[] outer = new JobHandle<?>[1];
            Counter ready = new Counter();
            ready.add(1);
            outer[0] = jobs.submit(() -> {
                ready.await();
                JobHandle<Object> child = jobs.submit(() -> outer[0].join());
                return child.join();                     // runs the child right here, inside this body
            });
            ready.decrement();
            JobFailedException e = assertThrows(JobFailedException.class, () -> join(outer[0]));
            Throwable refused = e.getCause() instanceof JobFailedException childFailed ? childFailed.getCause() : e.getCause();
            assertInstanceOf(IllegalStateException.class, refused, String.valueOf(e));
            assertTrue(refused.getMessage().contains("joins its own handle"), refused.getMessage());
        }
    }

    @Test
    void failuresOfJobsNobodyWaitsForReachTheUncaughtHandler() {
        java.util.List<String> seen = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        try (JobSystem jobs = JobSystem.builder().workers(1)
                .onUncaughtFailure((job, t) -> seen.add(job + ": " + t.getMessage())).build()) {
            jobs.run(Priority.NORMAL, "orphan", () -> {
                throw new IllegalStateException("boom");
            }, null);
            eventually("reported", () -> !seen.isEmpty());
            assertEquals(List.of("orphan: boom"), seen);
        }
    }

    /**
     * Every idle strategy, including those that never park while running, lets close and shutdownNow end;
     * and each does what it says while the system runs: under backoff every idle worker parks (idleParks
     * counts it), under busySpin and yielding none does, though each worker keeps scanning (its thread
     * burns CPU time). A builder that dropped the setting would give backoff, whose workers park.
     */
    @ParameterizedTest
    @ValueSource(strings = {"backoff", "busySpin", "yielding"})
    void everyIdleStrategyTerminatesOnCloseAndOnShutdownNow(String strategy) throws Exception {
        for (int workers = 1; workers <= 2; workers++) {
            for (boolean now : new boolean[] {false, true}) {
                IdleStrategy s = switch (strategy) {
                    case "busySpin" -> IdleStrategy.busySpin();
                    case "yielding" -> IdleStrategy.yielding();
                    default -> IdleStrategy.backoff();
                };
                JobSystem jobs = JobSystem.builder().workers(workers).idleStrategy(s).build();
                Counter c = new Counter();
                AtomicInteger ran = new AtomicInteger();
                for (int i = 0; i < 1000; i++) {
                    jobs.run(ran::incrementAndGet, c);
                }
                await(c);
                String what = strategy + ", " + workers + " workers";
                if (s.parks()) {
                    eventually(() -> what + ": every idle worker parked: " + jobs.stats(),
                            () -> jobs.stats().workers().stream().allMatch(w -> w.idleParks() > 0));
                } else {
                    assertIdleWithoutParking(jobs, what);
                }
                if (now) {
                    jobs.shutdownNow();
                } else {
                    jobs.shutdown();
                }
                assertTrue(jobs.awaitTermination(LONG), what + ", " + (now ? "shutdownNow" : "shutdown") + ": terminated");
                assertTrue(jobs.isTerminated());
                assertEquals(1000, ran.get());
            }
        }
    }

    /** CPU time each worker thread must spend idle, scanning, before "it never parked" means anything. */
    private static final long IDLE_SCAN_CPU_NANOS = 20_000_000L;

    /**
     * Waits until every worker thread has burnt {@link #IDLE_SCAN_CPU_NANOS} of CPU since the work ended
     * (a backoff worker parks after a few microseconds of it, so this is far past where it would have
     * parked; no wall-clock bound), failing early if any worker parks meanwhile.
     */
    private static void assertIdleWithoutParking(JobSystem jobs, String what) {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(mx.isThreadCpuTimeSupported(), "no per-thread CPU time here");
        List<Thread> threads = java.util.Arrays.stream(jobs.schedulerForTests().workers)
                .map(w -> (Thread) w.thread).toList();
        long[] start = threads.stream().mapToLong(t -> mx.getThreadCpuTime(t.threadId())).toArray();
        eventually(() -> what + ": each worker spent " + IDLE_SCAN_CPU_NANOS / 1_000_000 + " ms of CPU idle, or one parked: "
                + jobs.stats(), () -> {
            if (jobs.stats().workers().stream().anyMatch(w -> w.idleParks() > 0)) {
                return true;
            }
            for (int i = 0; i < threads.size(); i++) {
                if (mx.getThreadCpuTime(threads.get(i).threadId()) - start[i] < IDLE_SCAN_CPU_NANOS) {
                    return false;
                }
            }
            return true;
        });
        assertEquals(java.util.Collections.nCopies(threads.size(), 0L),
                jobs.stats().workers().stream().map(JobSystemStats.WorkerStats::idleParks).toList(),
                what + ": idle parks while running (a strategy that never parks parked): " + jobs.stats());
    }
}
