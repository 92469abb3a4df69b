package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * JobSystemBuilder.waitersHelp (WaitingHelp): a thread that is not a worker runs, while it waits, the
 * queued jobs its wait depends on and FRAME jobs, with worker index workerCount(). Every test holds all
 * workers in spinners first, so a job that ran at all ran on the waiting thread; a missing help shows as
 * a bounded await returning false, never as a time bound.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)   // untimed waits: a failure must not hang
class WaitingHelpTest {
    private static final Duration LONG = Duration.ofSeconds(30);

    /** Holds every worker in a NORMAL spinner (uncapped) until {@link #close}. */
    static final class Occupied implements AutoCloseable {
        final AtomicBoolean open = new AtomicBoolean();
        final Counter spinners = new Counter("spinners");

        Occupied(JobSystem jobs, int count) throws InterruptedException {
            CountDownLatch in = new CountDownLatch(count);
            for (int i = 0; i < count; i++) {
                jobs.run(Priority.NORMAL, "spinner", () -> {
                    in.countDown();
                    while (!open.get()) {
                        Thread.onSpinWait();
                    }
                }, spinners);
            }
            assertTrue(in.await(30, TimeUnit.SECONDS), "the spinners should occupy every worker");
        }

        @Override
        public void close() {
            open.set(true);
            spinners.await();
        }
    }

    @Test
    void waitingMainThreadRunsTheAwaitedCountersJobs() throws Exception {
        JobSystem jobs = JobSystem.builder().name("help").workers(2).build();
        Thread me = Thread.currentThread();
        AtomicInteger onMe = new AtomicInteger();
        AtomicInteger indexSeen = new AtomicInteger(-1);
        try (jobs; Occupied busy = new Occupied(jobs, 2)) {
            Counter c = new Counter("frame work");
            for (int i = 0; i < 50; i++) {
                jobs.run(Priority.FRAME, "frame piece", () -> {
                    if (Thread.currentThread() == me) {
                        onMe.incrementAndGet();
                        indexSeen.set(Jobs.workerIndex());
                    }
                }, c);
            }
            c.await();              // untimed: only such a wait helps (the workers are held: we run them)
            JobHandle<String> h = jobs.submit(Priority.FRAME, "handle", () -> Thread.currentThread().getName());
            assertEquals(me.getName(), h.join(), "join from outside runs the awaited handle");
            // NORMAL and BACKGROUND jobs stay for the workers (deep recursion needs their 64 MiB stacks).
            Counter slow = new Counter("loads");
            AtomicBoolean slowOnMe = new AtomicBoolean();
            jobs.run(Priority.NORMAL, "load", () -> slowOnMe.compareAndSet(false, Thread.currentThread() == me), slow);
            jobs.run(Priority.BACKGROUND, "decode", () -> slowOnMe.compareAndSet(false, Thread.currentThread() == me), slow);
            Thread opener = openLater(busy);
            slow.await();                                     // helps, but must take neither of them
            opener.join();
            assertFalse(slowOnMe.get(), "the waiter must not run NORMAL or BACKGROUND jobs");
        }
        assertEquals(50, onMe.get(), "every job ran on the waiting thread: the workers were occupied");
        assertEquals(jobs.workerCount(), indexSeen.get(), "a waiting thread is worker number workerCount()");
        assertEquals(3, jobs.workerSlots());
        assertEquals(51, jobs.stats().jobsRunByWaiters());
    }

    /**
     * A FRAME job the waiting main thread runs itself, and that then waits, is cancelled as a fiber's job
     * is: its handle's cancel, its group's, or shutdownNow ends the wait with JobCancelledException. Only
     * fibers' waits looked at cancellation, so the main thread stayed parked inside the cancelled job
     * until the counter was decremented by hand (a probe: 5 of 5 in each mode).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"handle", "group", "shutdownNow"})
    void aHelpedJobWaitingOnACounterIsCancellable(String how) throws Exception {
        JobSystem jobs = JobSystem.builder().name("help-cancel").workers(1).build();
        Thread me = Thread.currentThread();
        Counter never = new Counter("never");
        never.add(1);                                        // nothing decrements it: only a cancel ends the wait
        try (jobs; Occupied busy = new Occupied(jobs, 1)) {
            JobGroup level = jobs.newGroup("level");
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicBoolean ranHere = new AtomicBoolean();
            JobHandle<String> a = level.submit(Priority.FRAME, "A", () -> {
                ranHere.set(Thread.currentThread() == me);
                waiting.countDown();
                never.await();
                return "A's wait ended without a cancel";
            });
            Thread canceller = Thread.ofPlatform().name("canceller").start(() -> {
                try {
                    waiting.await();
                    while (me.getState() != Thread.State.WAITING) {   // A is parked in its wait
                        Thread.sleep(1);
                    }
                    switch (how) {
                        case "handle" -> a.cancel();
                        case "group" -> level.cancel();
                        default -> jobs.shutdownNow();
                    }
                    Thread.sleep(LONG.toMillis() / 3);
                    never.decrement();                       // on the old code: lets the test fail, not hang
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            String result;
            try {
                result = a.join();
            } catch (JobCancelledException e) {
                result = "cancelled";
            }
            if (never.value() > 0) {
                never.decrement();
            }
            canceller.interrupt();
            canceller.join();
            assertTrue(ranHere.get(), "the waiting thread ran A (the only worker was occupied)");
            assertEquals("cancelled", result, "A's wait ended by " + how);
            busy.open.set(true);
        }
    }

    /**
     * A main-thread job run inside a helped job's wait is not that job: the helped job's cancel made an
     * unrelated upload see Jobs.isCancelled() (a probe: 20 of 20), so it skipped or failed its work.
     */
    @Test
    void aMainThreadJobRunInsideAHelpedJobsWaitIsNotThatJob() throws Exception {
        JobSystem jobs = JobSystem.builder().name("help-identity").workers(1).build();
        jobs.bindMainThread();
        Thread me = Thread.currentThread();
        try (jobs; Occupied busy = new Occupied(jobs, 1)) {
            JobGroup level = jobs.newGroup("level");
            Counter gate = new Counter("gate");
            gate.add(1);
            CountDownLatch uploadRunning = new CountDownLatch(1);
            CountDownLatch levelCancelled = new CountDownLatch(1);
            AtomicReference<String> seenByUpload = new AtomicReference<>();
            JobHandle<Boolean> a = level.submit(Priority.FRAME, "A", () -> {
                jobs.onMainThread("upload", () -> {
                    uploadRunning.countDown();
                    levelCancelled.await();
                    seenByUpload.set("isCancelled=" + Jobs.isCancelled());
                    gate.decrement();
                    return null;
                });
                gate.await();                                // runs the upload here, on the main thread
                return Thread.currentThread() == me;
            });
            Thread canceller = Thread.ofPlatform().start(() -> {
                try {
                    uploadRunning.await();
                    // A's own cancel, not its group's: the upload A posted belongs to A's group, so a group
                    // cancel asks it to stop too (Jobs.isCancelled() is true in it, rightly), while A's
                    // handle cancel is A's alone.
                    a.cancel();
                    levelCancelled.countDown();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                a.join();
            } catch (JobCancelledException expected) {
                // A was cancelled: its wait may end with the cancellation once the upload returned
            }
            canceller.join();
            assertEquals("isCancelled=false", seenByUpload.get(), "the upload saw the helped job's cancel");
            busy.open.set(true);
        }
    }

    /**
     * A job the waiting thread runs sees none of that thread's interrupt status (as on a fiber of its own),
     * leaves none behind, and the thread has its own back after the wait.
     */
    @Test
    void aHelpedJobSeesNoneOfTheWaitersInterrupt() throws Exception {
        JobSystem jobs = JobSystem.builder().name("help-interrupt").workers(1).build();
        Thread me = Thread.currentThread();
        try (jobs; Occupied busy = new Occupied(jobs, 1)) {
            JobHandle<Boolean> h = jobs.submit(Priority.FRAME, "sleeps", () -> {
                boolean ranHere = Thread.currentThread() == me;
                boolean sawInterrupt = Thread.currentThread().isInterrupted();
                Thread.sleep(5);                              // throws if the waiter's interrupt leaked in
                Thread.currentThread().interrupt();           // left behind: must not reach the waiter
                return ranHere && !sawInterrupt;
            });
            me.interrupt();
            boolean ok = h.join();
            assertTrue(Thread.interrupted(), "the waiter's own interrupt is back (and cleared here)");
            assertTrue(ok, "ran on the waiting thread without its interrupt");
            JobHandle<Boolean> second = jobs.submit(Priority.FRAME, "second", () -> Thread.currentThread().isInterrupted());
            assertFalse(second.join(), "the first job's interrupt was left behind on the waiter");
            assertFalse(Thread.interrupted());
        }
    }

    /** A blocking call in a job the main thread runs goes to the blocking threads, never the main thread. */
    @Test
    void aBlockingCallInAHelpedJobLeavesTheWaitingThread() throws Exception {
        JobSystem jobs = JobSystem.builder().name("help-io").workers(1).build();
        Thread me = Thread.currentThread();
        try (jobs; Occupied busy = new Occupied(jobs, 1)) {
            JobHandle<String[]> h = jobs.submit(Priority.FRAME, "frame read", () -> new String[] {
                    Thread.currentThread().getName(), Jobs.blocking(() -> Thread.currentThread().getName())});
            String[] where = h.join();
            assertEquals(me.getName(), where[0], "the job ran on the waiting thread (the worker was busy)");
            assertTrue(where[1].startsWith("help-io-blocking-"), "the call ran on " + where[1]);
        }
    }

    @Test
    void helpingOffMeansTheWaiterSleeps() throws Exception {
        JobSystem jobs = JobSystem.builder().name("nohelp").workers(1).waitersHelp(false).build();
        Thread me = Thread.currentThread();
        try (jobs; Occupied busy = new Occupied(jobs, 1)) {
            Counter c = new Counter("load");
            AtomicBoolean onMe = new AtomicBoolean();
            jobs.run(Priority.FRAME, "load", () -> onMe.set(Thread.currentThread() == me), c);
            Thread opener = openLater(busy);
            c.await();
            opener.join();
            assertFalse(onMe.get(), "with waitersHelp(false) the waiting thread must not run it");
        }
        assertEquals(0, jobs.stats().jobsRunByWaiters());
        assertEquals(1, jobs.workerSlots());
    }

    /** The awaited job runs on a worker and waits for a FRAME job nobody else can run: the waiter runs it. */
    @Test
    void waiterRunsFrameJobsTheWaitDoesNotOwn() throws Exception {
        JobSystem jobs = JobSystem.builder().name("frame-help").workers(2).build();
        Thread me = Thread.currentThread();
        AtomicBoolean frameRanOnMe = new AtomicBoolean();
        try (jobs; Occupied busy = new Occupied(jobs, 1)) {
            AtomicBoolean frameDone = new AtomicBoolean();
            CountDownLatch consumerIn = new CountDownLatch(1);
            Counter c = new Counter("consumer");
            jobs.run(Priority.NORMAL, "consumer", () -> {
                consumerIn.countDown();
                while (!frameDone.get()) {
                    Thread.onSpinWait();
                }
            }, c);
            assertTrue(consumerIn.await(30, TimeUnit.SECONDS));
            jobs.run(Priority.FRAME, "frame", () -> {
                frameRanOnMe.set(Thread.currentThread() == me);
                frameDone.set(true);
            }, null);
            c.await();                                        // untimed: it helps, and runs the FRAME job the consumer needs
        }
        assertTrue(frameRanOnMe.get());
    }

    /** parallelFor pieces the waiter runs see index workerCount(); its splits go to the workers' queue. */
    @Test
    void parallelForOnTheWaiterUsesItsOwnSlot() throws Exception {
        JobSystem jobs = JobSystem.builder().name("range-help").workers(2).build();
        int n = 10_000;
        long[] perSlot = new long[jobs.workerSlots()];
        AtomicInteger outOfRange = new AtomicInteger();
        try (jobs; Occupied busy = new Occupied(jobs, 2)) {
            Counter frame = new Counter("frame");
            jobs.parallelFor(Priority.FRAME, 0, n, 64, (s, e, worker) -> {
                if (worker != Jobs.workerIndex() || worker >= perSlot.length) {
                    outOfRange.incrementAndGet();
                    return;
                }
                for (int i = s; i < e; i++) {
                    perSlot[worker] += i;
                }
            }, frame);
            frame.await();                                    // the waiter runs every piece
        }
        assertEquals(0, outOfRange.get());
        assertEquals((long) n * (n - 1) / 2, perSlot[2], "all pieces ran in the waiter's slot (workers were busy)");
    }

    /**
     * Four outside threads wait at once on their own parallelFor while the workers run too: a slot never
     * has two writers at a time (only one waiter holds the helper's seat), and every sum is right.
     */
    @Test
    void oneWriterPerSlotWithManyWaiters() throws Exception {
        JobSystem jobs = JobSystem.builder().name("slots").workers(2).build();
        AtomicIntegerArray inUse = new AtomicIntegerArray(jobs.workerSlots());
        AtomicInteger clashes = new AtomicInteger();
        AtomicLong helped = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        try (jobs) {
            for (int t = 0; t < 4; t++) {
                Thread th = new Thread(() -> {
                    try {
                        for (int round = 0; round < 300; round++) {
                            AtomicLong sum = new AtomicLong();
                            Counter c = new Counter("round");
                            jobs.parallelFor(Priority.FRAME, 0, 512, 16, (s, e, worker) -> {
                                if (!inUse.compareAndSet(worker, 0, 1)) {
                                    clashes.incrementAndGet();
                                }
                                long local = 0;
                                for (int i = s; i < e; i++) {
                                    local += i;
                                }
                                sum.addAndGet(local);
                                inUse.set(worker, 0);
                            }, c);
                            c.await();
                            if (sum.get() != 512L * 511 / 2) {
                                throw new AssertionError("round " + round + ": sum " + sum.get());
                            }
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "waiter-" + t);
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join();
            }
            helped.set(jobs.stats().jobsRunByWaiters());
        }
        assertEquals(List.of(), errors);
        assertEquals(0, clashes.get(), "two threads wrote one worker slot at once");
        assertTrue(helped.get() > 0, "no waiter helped: the test shows nothing");
    }

    /** A helped job on the main thread that needs a main-thread job does not deadlock. */
    @Test
    void mainThreadJobsRunWhileTheMainThreadHelps() throws Exception {
        JobSystem jobs = JobSystem.builder().name("mailbox").workers(1).build();
        try (jobs; Occupied busy = new Occupied(jobs, 1)) {
            jobs.runMainThreadJobs(1_000_000L);               // this thread owns the mailbox
            Counter c = new Counter("needs main");
            jobs.run(Priority.FRAME, "asks main", () -> {
                int v = jobs.onMainThread(() -> 7).join();
                if (v != 7) {
                    throw new AssertionError(v);
                }
            }, c);
            c.await();
            c.throwIfFailed();
        }
    }

    /**
     * A wait inside a helped job runs only what that wait depends on. The main thread helps FRAME job A,
     * which waits for a NORMAL job queued behind the busy worker; if that nested wait ran any FRAME job, it
     * would run B, which waits for A: A sits below B on the same stack and never ends (the soak's hang).
     */
    @Test
    void aWaitInsideAHelpedJobRunsOnlyItsOwnDependencies() throws Exception {
        JobSystem jobs = JobSystem.builder().name("nested-help").workers(1).build();
        Thread me = Thread.currentThread();
        AtomicBoolean bRanInsideA = new AtomicBoolean();
        AtomicBoolean aRunning = new AtomicBoolean();
        AtomicBoolean bTimedOut = new AtomicBoolean();
        try (jobs) {
            Counter normalDone = new Counter("normal");
            Counter aDone = new Counter("A");
            Counter bDone = new Counter("B");
            try (Occupied busy = new Occupied(jobs, 1)) {
                jobs.run(Priority.NORMAL, "X", () -> { }, normalDone);   // queued behind the spinner
                jobs.run(Priority.FRAME, "A", () -> {
                    aRunning.set(true);
                    normalDone.await();
                    aRunning.set(false);
                }, aDone);
                jobs.run(Priority.FRAME, "B", () -> {
                    if (aRunning.get() && Thread.currentThread() == me) {
                        bRanInsideA.set(true);
                    }
                    if (!aDone.await(Duration.ofSeconds(3))) {
                        bTimedOut.set(true);             // A is below us on this stack: it cannot end
                    }
                }, bDone);
                Thread opener = openLater(busy);             // the worker is free: X runs, then A can end
                // The main thread waits for X: none of its jobs are FRAME, so it helps with A, the first FRAME job.
                normalDone.await();
                bDone.await();
                opener.join();
            }
        }
        assertFalse(bRanInsideA.get(), "the nested wait of A ran B, which A does not depend on");
        assertFalse(bTimedOut.get(), "B waited for A, which sat below it on the main thread's stack");
    }

    /** A fire-and-forget job the waiting thread runs fails: the failure reaches the uncaught handler. */
    @Test
    void aHelpedOrphansFailureReachesTheUncaughtHandler() throws Exception {
        List<String> reported = java.util.Collections.synchronizedList(new ArrayList<>());
        JobSystem jobs = JobSystem.builder().name("orphan-help").workers(1)
                .onUncaughtFailure((job, t) -> reported.add(job + ": " + t.getMessage())).build();
        Thread me = Thread.currentThread();
        AtomicBoolean ranOnMe = new AtomicBoolean();
        try (jobs) {
            Counter after = new Counter("after");
            try (Occupied busy = new Occupied(jobs, 1)) {
                jobs.run(Priority.FRAME, "orphan", () -> {
                    ranOnMe.set(Thread.currentThread() == me);
                    throw new IllegalStateException("orphan broke");
                }, null);                                                 // no counter: nobody waits
                jobs.run(Priority.NORMAL, "after", () -> { }, after);   // behind the spinner: the waiter helps
                Thread opener = openLater(busy);
                after.await();
                opener.join();
            }
        }
        assertTrue(ranOnMe.get(), "the waiting thread should have run the orphan (the worker was busy)");
        assertEquals(List.of("orphan: orphan broke"), reported);
    }

    /** A job the waiting thread runs is asked to stop like one on a fiber: Jobs.isCancelled() turns true. */
    @Test
    void aHelpedJobSeesItsCancellation() throws Exception {
        JobSystem jobs = JobSystem.builder().name("cancel-help").workers(1).build();
        Thread me = Thread.currentThread();
        AtomicBoolean ranOnMe = new AtomicBoolean();
        AtomicBoolean sawCancel = new AtomicBoolean();
        AtomicBoolean checkThrew = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        try (jobs; Occupied busy = new Occupied(jobs, 1)) {
            JobHandle<Void> h = jobs.submit(Priority.FRAME, "long frame job", () -> {
                ranOnMe.set(Thread.currentThread() == me);
                started.countDown();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!Jobs.isCancelled() && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                sawCancel.set(Jobs.isCancelled());
                try {
                    Jobs.checkCancelled();
                } catch (JobCancelledException expected) {
                    checkThrew.set(true);
                    throw expected;
                }
                return null;
            });
            Thread canceller = new Thread(() -> {
                try {
                    if (started.await(30, TimeUnit.SECONDS)) {
                        h.cancel();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            canceller.start();
            try {
                h.join();
            } catch (JobCancelledException expected) {
                // cancelled while running: the join reports it
            }
            canceller.join();
        }
        assertTrue(ranOnMe.get(), "the waiting thread should have run the job (the worker was busy)");
        assertTrue(sawCancel.get(), "Jobs.isCancelled() stayed false in a cancelled job the waiter ran");
        assertTrue(checkThrew.get(), "Jobs.checkCancelled() did not throw in a cancelled job the waiter ran");
    }

    /** A wait with a timeout never helps: a job it ran could not be stopped at the deadline. */
    @Test
    void aTimedWaitSleepsSoItsTimeoutHolds() throws Exception {
        JobSystem jobs = JobSystem.builder().name("timed").workers(1).build();
        Thread me = Thread.currentThread();
        AtomicBoolean onMe = new AtomicBoolean();
        try (jobs; Occupied busy = new Occupied(jobs, 1)) {
            Counter c = new Counter("frame");
            jobs.run(Priority.FRAME, "frame", () -> onMe.set(Thread.currentThread() == me), c);
            assertFalse(c.await(Duration.ofMillis(200)), "a timed wait ran the job: its timeout would not hold");
            JobHandle<Void> h = jobs.submit(Priority.FRAME, "handle", () -> null);
            assertThrows(java.util.concurrent.TimeoutException.class, () -> h.join(Duration.ofMillis(100)));
            busy.open.set(true);                              // the worker runs both; we wait timed, so we do not
            assertTrue(c.await(LONG));
            h.join(LONG);
        }
        assertFalse(onMe.get(), "a timed wait ran the job");
        assertEquals(0, jobs.stats().jobsRunByWaiters());
    }

    /** Opens {@code busy}'s spinners from another thread after 300 ms, while this one waits. */
    private static Thread openLater(Occupied busy) {
        Thread opener = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            busy.open.set(true);
        }, "opener");
        opener.start();
        return opener;
    }

    /**
     * A conditional steal that claimed a node the owner had popped and pushed again at the same index
     * (JobDeque.stealIf: the job tested is not the job taken) hands a job its wait may not run to the
     * workers: it runs once, on a worker, and its counter still counts it. The race itself is staged at
     * the deque level (JobDequeTest, jcstress JobDequeStaleThiefVsRepush); this is what the waiter does
     * with its result. Fails if the waiter keeps the job (it would run a job of another counter inline).
     */
    @Test
    void aConditionallyStolenJobOfAnotherCounterGoesToTheWorkersStillCounted() throws Exception {
        int frame = Priority.FRAME.ordinal();
        try (JobSystem jobs = JobSystem.builder().workers(1).build()) {
            WaitingHelp help = jobs.schedulerForTests().waitingHelp;
            Counter awaited = new Counter("awaited");
            Counter other = new Counter("other");
            AtomicInteger runs = new AtomicInteger();
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            PooledJob stolen = new PooledJob();
            stolen.job = () -> {
                runs.incrementAndGet();
                ranOn.set(Thread.currentThread());
            };
            stolen.counter = other;
            stolen.priority = frame;
            other.add(1);                                  // counted, as its submission did

            assertTrue(help.handBackIfNotAwaited(stolen, awaited, frame), "a job of another counter is handed back");
            assertTrue(other.await(LONG), "the handed-back job should run on a worker and complete its counter");
            assertEquals(1, runs.get());
            assertNotSame(Thread.currentThread(), ranOn.get());

            PooledJob own = new PooledJob();
            own.counter = awaited;
            own.priority = frame;
            assertFalse(help.handBackIfNotAwaited(own, awaited, frame), "a job the wait depends on is kept");
        }
    }
}
