package dev.weft;

import static dev.weft.TestSupport.await;
import static dev.weft.TestSupport.closeWithin;
import static dev.weft.TestSupport.join;
import static dev.weft.TestSupport.system;
import static dev.weft.TestSupport.workersOnly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The rules of the core scheduler, each over 1, 2, 4 and 8 workers. */
@Timeout(120)
class CoreSchedulerTest {

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4, 8})
    void everyJobRunsExactlyOnce(int workers) {
        try (JobSystem jobs = system(workers)) {
            int n = 50_000;
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            Counter done = new Counter("all");
            for (int i = 0; i < n; i++) {
                int id = i;
                jobs.run(Priority.VALUES[i % 3], "job" + i, () -> runs.incrementAndGet(id), done);
            }
            await(done);
            for (int i = 0; i < n; i++) {
                assertEquals(1, runs.get(i), "job " + i);
            }
            assertEquals(0, done.value());
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4, 8})
    void jobsSubmittedFromJobsRunExactlyOnce(int workers) {
        try (JobSystem jobs = system(workers)) {
            int fanOut = 200;
            AtomicIntegerArray runs = new AtomicIntegerArray(fanOut * fanOut);
            Counter done = new Counter("tree");
            for (int i = 0; i < fanOut; i++) {
                int a = i;
                jobs.run(Priority.NORMAL, "parent", () -> {
                    for (int b = 0; b < fanOut; b++) {
                        int id = a * fanOut + b;
                        jobs.run(Priority.NORMAL, "child", () -> runs.incrementAndGet(id), done);
                    }
                }, done);
            }
            await(done);
            for (int i = 0; i < runs.length(); i++) {
                assertEquals(1, runs.get(i), "child " + i);
            }
        }
    }

    static long fib(JobSystem jobs, int n) {
        if (n < 2) {
            return n;
        }
        long[] r = new long[2];
        Counter c = new Counter();
        jobs.run(() -> r[0] = fib(jobs, n - 1), c);
        jobs.run(() -> r[1] = fib(jobs, n - 2), c);
        c.await();
        return r[0] + r[1];
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4, 8})
    void nestedWaitsComputeFib(int workers) {
        try (JobSystem jobs = system(workers)) {
            assertEquals(6765L, join(jobs.submit(() -> fib(jobs, 20))));
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4, 8})
    void aWaitingJobFreesItsWorker(int workers) {
        // Four waiting jobs per worker, all parked, before the job that releases them is submitted. If
        // waiting held the worker, the releasing job could never run and this would hang.
        try (JobSystem jobs = system(workers)) {
            Counter gate = new Counter("gate");
            gate.add(1);
            Counter waiters = new Counter("waiters");
            int n = workers * 4;
            for (int i = 0; i < n; i++) {
                jobs.run(Priority.FRAME, "waiter", gate::await, waiters);
            }
            TestSupport.eventually(() -> "all " + n + " waiters parked; " + jobs.stats(),
                    () -> jobs.stats().fibersParked() == n);
            Counter released = new Counter("released");
            jobs.run(Priority.BACKGROUND, "release", gate::decrement, released);
            await(released);
            await(waiters);
            assertTrue(jobs.stats().waits() >= n, "each waiter parked its fiber: " + jobs.stats());
        }
    }

    /**
     * One worker is held while the other's job pushes 100 children and then spins (it never pops them),
     * so when the first is let go it must steal them all from a full deque: every child runs once, each
     * is counted as a steal, and it takes them in batches (fewer visits than jobs; one steal per visit
     * would need at least 100).
     */
    @Test
    void aThiefTakesABatchPerVisitAndNothingIsLostOrRunTwice() {
        try (JobSystem jobs = workersOnly(2)) {
            int n = 100;
            AtomicIntegerArray ran = new AtomicIntegerArray(n);
            Counter held = new Counter("held");
            held.add(1);
            Counter pushed = new Counter("pushed");
            pushed.add(1);
            Counter children = new Counter("children");
            Counter both = new Counter("holder and spawner");
            jobs.run(Priority.NORMAL, "holder", () -> {
                held.decrement();
                while (pushed.value() > 0) {
                    Thread.onSpinWait();             // keeps this worker from stealing too early
                }
            }, both);
            await(held);
            // The holder itself may have been stolen (an outside submission moves into one worker's deque,
            // and the other may take it from there): count only the steals from here on.
            long stealsBefore = jobs.stats().steals();
            jobs.run(Priority.NORMAL, "spawner", () -> {
                for (int i = 0; i < n; i++) {
                    int id = i;
                    jobs.run(Priority.NORMAL, "child", () -> ran.incrementAndGet(id), children);
                }
                pushed.decrement();
                while (children.value() > 0) {
                    Thread.onSpinWait();             // holds this worker: it never pops its children
                }
            }, both);
            await(both);
            for (int i = 0; i < n; i++) {
                assertEquals(1, ran.get(i), "child " + i);
            }
            JobSystemStats s = jobs.stats();
            assertEquals(n, s.steals() - stealsBefore, "every child was stolen (" + stealsBefore + " before): " + s);
            long attempts = s.workers().stream().mapToLong(JobSystemStats.WorkerStats::stealAttempts).sum();
            assertTrue(attempts < n, "batches: " + attempts + " steal visits for " + n + " stolen jobs");
            System.out.printf("batch steals: %d jobs stolen in %d visits%n", s.steals(), attempts);
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void jobsThatNeverWaitReuseFibers(int workers) {
        try (JobSystem jobs = system(workers)) {
            Counter done = new Counter();
            for (int i = 0; i < 100_000; i++) {
                jobs.run(() -> { }, done);
            }
            await(done);
            long created = jobs.stats().fibersCreated();
            assertTrue(created <= workers * 2L, "100k non-waiting jobs made " + created + " fibers");
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void aFailingJobCompletesItsCounterAndReachesTheWaiter(int workers) {
        try (JobSystem jobs = system(workers)) {
            Counter c = new Counter("failing");
            AtomicInteger ok = new AtomicInteger();
            for (int i = 0; i < 10; i++) {
                jobs.run(ok::incrementAndGet, c);
            }
            jobs.run(Priority.NORMAL, "broken physics", () -> {
                throw new IllegalStateException("NaN in rigid body 7");
            }, c);
            JobFailedException e = assertThrows(JobFailedException.class, c::await);
            assertEquals("broken physics", e.jobName());
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(e.getMessage().contains("broken physics"), e.getMessage());
            assertEquals(0, c.value());
            assertEquals(10, ok.get());
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void checkedExceptionsAndErrorsFailOnlyTheirJob(int workers) {
        try (JobSystem jobs = system(workers)) {
            JobHandle<Object> checked = jobs.submit(() -> {
                throw new java.io.IOException("disk gone");
            });
            JobHandle<Object> error = jobs.submit(() -> {
                throw new AssertionError("invariant");
            });
            JobHandle<Integer> deep = jobs.submit(() -> recurse(0));
            JobHandle<Integer> fine = jobs.submit(() -> 42);
            assertInstanceOf(java.io.IOException.class,
                    assertThrows(JobFailedException.class, checked::join).getCause());
            assertInstanceOf(AssertionError.class, assertThrows(JobFailedException.class, error::join).getCause());
            assertInstanceOf(StackOverflowError.class, assertThrows(JobFailedException.class, deep::join).getCause());
            assertEquals(42, join(fine));
            // The system still works after a stack overflow on one of its fibers.
            assertEquals(6765L, join(jobs.submit(() -> fib(jobs, 20))));
        }
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void deepRecursionIsSafeOnTheLargeWorkerStack(int workers) {
        try (JobSystem jobs = system(workers)) {
            // 200k frames would overflow a default 1 MiB thread stack; the 64 MiB worker stack holds it.
            assertEquals(200_000, join(jobs.submit(() -> depth(200_000))));
        }
    }

    private static int depth(int n) {
        return n == 0 ? 0 : depth(n - 1) + 1;
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void threadLocalsDoNotLeakBetweenJobsOnAReusedFiber(int workers) {
        ThreadLocal<String> local = new ThreadLocal<>();
        InheritableThreadLocal<String> inheritable = new InheritableThreadLocal<>();
        try (JobSystem jobs = system(workers)) {
            Counter done = new Counter();
            AtomicInteger leaks = new AtomicInteger();
            for (int i = 0; i < 5_000; i++) {
                String mine = "job" + i;
                jobs.run(() -> {
                    if (local.get() != null || inheritable.get() != null) {
                        leaks.incrementAndGet();
                    }
                    local.set(mine);
                    inheritable.set(mine);
                }, done);
            }
            await(done);
            assertEquals(0, leaks.get(), "jobs saw another job's ThreadLocal");
            // A nested (inline-run) dependency sees none of its parent's values, and the parent keeps them.
            String seen = join(jobs.submit(() -> {
                local.set("parent");
                AtomicReference<String> inner = new AtomicReference<>("unset");
                Counter c = new Counter();
                jobs.run(() -> inner.set(String.valueOf(local.get())), c);
                c.await();
                return inner.get() + "/" + local.get();
            }));
            assertEquals("null/parent", seen);
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void awaitAtANonZeroTarget(int workers) {
        try (JobSystem jobs = system(workers)) {
            Counter c = new Counter("ten");
            c.add(10);
            JobHandle<Long> waiter = jobs.submit(() -> {
                c.await(3);
                return c.value();
            });
            for (int i = 0; i < 7; i++) {
                jobs.run(c::decrement);
            }
            assertTrue(join(waiter) <= 3);
            c.decrement(3);
            assertEquals(0, c.value());
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void inlineHelpNeverRunsAnUnrelatedJob(int workers) {
        try (JobSystem jobs = system(workers)) {
            AtomicReference<Thread> outerThread = new AtomicReference<>();
            AtomicReference<Thread> unrelatedThread = new AtomicReference<>();
            AtomicReference<Thread> dependencyThread = new AtomicReference<>();
            // Fibers are pooled: once outer has ended, its fiber may run the unrelated job as a job of its
            // own, so the check is "on that fiber while outer waits", not "on that fiber ever". Both flags
            // are written and read on the one fiber in question, so program order makes them exact.
            AtomicBoolean outerWaiting = new AtomicBoolean();
            AtomicBoolean unrelatedRanInTheWait = new AtomicBoolean();
            JobHandle<Void> outer = jobs.submit(() -> {
                outerThread.set(Thread.currentThread());
                Counter mine = new Counter("mine");
                Counter other = new Counter("other");
                jobs.run(() -> dependencyThread.set(Thread.currentThread()), mine);
                jobs.run(() -> {                                               // now at the bottom
                    unrelatedThread.set(Thread.currentThread());
                    if (outerWaiting.get() && Thread.currentThread() == outerThread.get()) {
                        unrelatedRanInTheWait.set(true);
                    }
                }, other);
                outerWaiting.set(true);
                mine.await();
                outerWaiting.set(false);
                return null;
            });
            join(outer);
            TestSupport.eventually("unrelated job ran", () -> unrelatedThread.get() != null);
            assertFalse(unrelatedRanInTheWait.get(),
                    "the unrelated job must not run on the waiting job's fiber while it waits");
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void inlineHelpRunsTheDependencyOnTheWaitersFiber(int workers) {
        try (JobSystem jobs = system(workers)) {
            // Nobody may steal the dependency: every other worker spins inside a blocker job (a worker only
            // steals from its carrier loop, between jobs), so the waiter's worker is the only one that can
            // take it, and it must do so inline, on the waiting fiber, without parking.
            AtomicInteger blockersRunning = new AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean release = new java.util.concurrent.atomic.AtomicBoolean();
            Counter blockers = new Counter("blockers");
            for (int i = 0; i < workers - 1; i++) {
                jobs.run(Priority.NORMAL, "blocker", () -> {
                    blockersRunning.incrementAndGet();
                    long end = System.nanoTime() + TestSupport.LONG.toNanos();   // hang guard only
                    while (!release.get() && System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                }, blockers);
            }
            try {
                TestSupport.eventually("every other worker holds a blocker", () -> blockersRunning.get() == workers - 1);
                long waitsBefore = jobs.stats().waits();
                JobHandle<Boolean> sameFiber = jobs.submit(() -> {
                    Thread me = Thread.currentThread();
                    AtomicReference<Thread> dep = new AtomicReference<>();
                    Counter c = new Counter();
                    jobs.run(() -> dep.set(Thread.currentThread()), c);
                    c.await();
                    return dep.get() == me;
                });
                assertTrue(join(sameFiber), "the dependency ran on the waiter's fiber");
                assertEquals(waitsBefore, jobs.stats().waits(), "the waiter never parked: " + jobs.stats());
            } finally {
                release.set(true);
            }
            await(blockers);
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4, 8})
    void parallelForCoversTheRangeOnceWithValidWorkerIndices(int workers) {
        try (JobSystem jobs = system(workers)) {
            int n = 100_003;
            int grain = 97;
            AtomicIntegerArray seen = new AtomicIntegerArray(n);
            Set<Integer> indices = ConcurrentHashMap.newKeySet();
            AtomicInteger tooBig = new AtomicInteger();
            jobs.parallelFor(0, n, grain, (s, e, w) -> {
                if (e - s > grain) {
                    tooBig.incrementAndGet();
                }
                indices.add(w);
                for (int i = s; i < e; i++) {
                    seen.incrementAndGet(i);
                }
            });
            for (int i = 0; i < n; i++) {
                assertEquals(1, seen.get(i), "element " + i);
            }
            assertEquals(0, tooBig.get(), "a range larger than the grain");
            for (int w : indices) {
                // the waiting test thread runs pieces too, as worker number workerCount() (WaitingHelp)
                assertTrue(w >= 0 && w < jobs.workerSlots(), "worker index " + w);
            }
            // From inside a job, and with an async counter.
            Counter c = new Counter();
            AtomicInteger sum = new AtomicInteger();
            jobs.run(() -> jobs.parallelFor(Priority.FRAME, 0, 1000, 10, (s, e, w) -> sum.addAndGet(e - s), c));
            TestSupport.eventually("async parallelFor", () -> sum.get() == 1000 && c.isDone());
        }
    }

    /**
     * Ranges anywhere in int, and longer than Integer.MAX_VALUE: every piece lies inside [from, to), holds at
     * most grain elements, and the pieces tile the range exactly. Found by a probe on the public API: the
     * midpoint {@code (s + e) >>> 1} is wrong when s + e < 0 ([-5, 5) split at 2147483645, [-100, 100) gave a
     * body index 200 out of bounds), and {@code e - s > grain} overflowed for [MIN_VALUE, MAX_VALUE),
     * which ran as one piece of 2^32 - 1 elements.
     */
    @ParameterizedTest(name = "[{0}, {1}) grain {2}")
    @CsvSource({"-5, 5, 1", "-100, 100, 16", "-1000, -500, 7", "-2147483648, -2147482648, 10",
            "2147482647, 2147483647, 10", "-2147483648, 2147483647, 268435456", "-1, 2147483647, 536870912"})
    void parallelForPiecesTileAnyRangeWithinTheGrain(int from, int to, int grain) {
        try (JobSystem jobs = system(2)) {
            java.util.Queue<long[]> pieces = new java.util.concurrent.ConcurrentLinkedQueue<>();
            jobs.parallelFor(from, to, grain, (s, e, w) -> pieces.add(new long[] {s, e}));
            List<long[]> sorted = new ArrayList<>(pieces);
            sorted.sort(java.util.Comparator.comparingLong(p -> p[0]));
            long next = from;
            for (long[] p : sorted) {
                assertEquals(next, p[0], "pieces leave a gap or overlap at " + next);
                assertTrue(p[1] > p[0] && p[1] - p[0] <= grain && p[1] <= to,
                        "piece [" + p[0] + ", " + p[1] + ") of [" + from + ", " + to + ") grain " + grain);
                next = p[1];
            }
            assertEquals((long) to, next, "the pieces end at to");
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1})
    void higherPrioritiesRunFirst(int workers) {
        // Workers only: a waiting test thread that helps would run FRAME jobs beside the worker, in no order.
        try (JobSystem jobs = workersOnly(workers)) {
            Counter gate = new Counter("gate");
            gate.add(1);
            Counter blockerStarted = new Counter();
            blockerStarted.add(1);
            List<Priority> order = Collections.synchronizedList(new ArrayList<>());
            Counter done = new Counter();
            // Block the only worker without parking: a busy loop on the gate.
            jobs.run(Priority.NORMAL, "blocker", () -> {
                blockerStarted.decrement();
                while (gate.value() > 0) {
                    Thread.onSpinWait();
                }
            }, done);
            await(blockerStarted);
            for (int i = 0; i < 5; i++) {
                jobs.run(Priority.BACKGROUND, "bg", () -> order.add(Priority.BACKGROUND), done);
                jobs.run(Priority.NORMAL, "normal", () -> order.add(Priority.NORMAL), done);
                jobs.run(Priority.FRAME, "frame", () -> order.add(Priority.FRAME), done);
            }
            gate.decrement();
            await(done);
            List<Priority> sorted = new ArrayList<>(order);
            Collections.sort(sorted);
            assertEquals(sorted, order, "jobs ran in priority order");
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void backgroundWorkIsNotStarvedByEndlessFrameWork(int workers) {
        try (JobSystem jobs = workersOnly(workers)) {
            AtomicInteger frameJobs = new AtomicInteger();
            AtomicInteger frameJobsBeforeBackground = new AtomicInteger(-1);
            Counter background = new Counter("background");
            Counter frames = new Counter("frames");
            // Each frame job resubmits itself until the background job has run: without the
            // starvation bound the background job would never be picked.
            Job[] frame = new Job[1];
            frame[0] = () -> {
                frameJobs.incrementAndGet();
                if (background.value() > 0 && frameJobs.get() < 1_000_000) {
                    jobs.run(Priority.FRAME, "frame", frame[0], frames);
                }
            };
            jobs.run(Priority.FRAME, "frame", () -> {
                jobs.run(Priority.BACKGROUND, "bg", () -> frameJobsBeforeBackground.set(frameJobs.get()), background);
                for (int i = 0; i < 4; i++) {
                    jobs.run(Priority.FRAME, "frame", frame[0], frames);
                }
            }, frames);
            await(background);
            await(frames);
            int before = frameJobsBeforeBackground.get();
            assertTrue(before >= 0 && before <= WorkPicker.STARVATION_INTERVAL * 2 * workers + 8,
                    "background job waited for " + before + " frame jobs");
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1})
    void resumedFibersGoBeforeNewJobsOfTheSamePriority(int workers) {
        try (JobSystem jobs = workersOnly(workers)) {
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            Counter c = new Counter("c");
            c.add(1);
            Counter done = new Counter();
            jobs.run(Priority.NORMAL, "waiter", () -> {
                c.await();
                order.add("resumed");
            }, done);
            TestSupport.eventually("the waiter parked", () -> jobs.stats().fibersParked() == 1);
            jobs.run(Priority.NORMAL, "releaser", () -> {
                jobs.run(Priority.NORMAL, "new", () -> order.add("new"), done);
                c.decrement();                  // the waiter becomes ready after "new" was queued
            }, done);
            await(done);
            assertEquals(List.of("resumed", "new"), order);
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void aBoundedPoolThatRunsDryFailsWaitingJobsInsteadOfHanging(int workers) {
        try (JobSystem jobs = JobSystem.builder().workers(workers).waitersHelp(false)   // the dry-pool path
                .fiberPool(FiberPoolPolicy.bounded(2, java.time.Duration.ofMillis(200))).build()) {
            // Two jobs each wait on a gate that only a third job would open: with two fibers, the third
            // can never start. It must fail with FiberPoolExhaustedException, not hang.
            Counter gate = new Counter("gate");
            gate.add(1);
            Counter waiters = new Counter("waiters");
            jobs.run(Priority.NORMAL, "waiter1", gate::await, waiters);
            jobs.run(Priority.NORMAL, "waiter2", gate::await, waiters);
            TestSupport.eventually("both waiters parked", () -> jobs.stats().fibersParked() == 2);
            JobHandle<Object> opener = jobs.submit(Priority.NORMAL, "opener", () -> {
                gate.decrement();
                return null;
            });
            JobFailedException e = assertThrows(JobFailedException.class, () -> join(opener));
            assertInstanceOf(FiberPoolExhaustedException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("FiberPoolPolicy"), e.getCause().getMessage());
            gate.decrement();                   // open it from outside so the waiters finish
            await(waiters);
            assertTrue(jobs.stats().fibersCreated() <= 2);
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void closeRetiresEveryFiberAndWorker(int workers) {
        JobSystem jobs = system(workers);
        Counter done = new Counter();
        for (int i = 0; i < 1000; i++) {
            jobs.run(() -> fib(jobs, 10), done);
        }
        await(done);
        closeWithin(jobs);
        assertTrue(jobs.isTerminated());
        JobSystemStats s = jobs.stats();
        assertEquals(0, s.fibersAlive(), "fibers left alive after close");
        assertEquals(0, s.fibersParked());
        for (Worker w : jobs.schedulerForTests().workers) {
            TestSupport.eventually("worker thread ends", () -> !w.thread.isAlive());
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2})
    void statisticsAddUpAfterADrain(int workers) {
        JobSystem jobs = system(workers);
        Counter done = new Counter();
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            jobs.run(() -> { }, done);
        }
        await(done);
        closeWithin(jobs);
        assertEquals(n, jobs.stats().jobsRun());
        assertEquals(0, jobs.stats().jobsCancelled());
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {2})
    void virtualThreadsStartedInsideJobsRunOffWeftWorkers(int workers) {   // ForeignVirtualThreadTest: more
        try (JobSystem jobs = workersOnly(workers)) {
            String carrier = join(jobs.submit(() -> {
                AtomicReference<String> seen = new AtomicReference<>();
                Thread t = Thread.ofVirtual().start(() ->
                        seen.set(String.valueOf(dev.weft.internal.FiberSupport.currentCarrier().getName())));
                t.join();
                return seen.get();
            }));
            assertFalse(carrier.startsWith("test2-worker-"), carrier);
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1})
    void emptyCounterAwaitReturnsAtOnceEverywhere(int workers) {
        try (JobSystem jobs = system(workers)) {
            Counter c = new Counter();
            c.await();
            assertNull(join(jobs.submit(() -> {
                c.await();
                return null;
            })));
            assertFalse(jobs.isTerminated());
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void batchesRunEveryJobOnceInsideAndOutsideJobs(int workers) {
        try (JobSystem jobs = system(workers)) {
            int n = 1000;
            AtomicIntegerArray runs = new AtomicIntegerArray(2 * n);
            Job[] outside = new Job[n];
            Job[] inside = new Job[n];
            for (int i = 0; i < n; i++) {
                int id = i;
                outside[i] = () -> runs.incrementAndGet(id);
                inside[i] = () -> runs.incrementAndGet(n + id);
            }
            Counter c = new Counter("batch");
            jobs.runAll(Priority.FRAME, c, outside);
            await(c);
            Counter d = new Counter("inner batch");
            join(jobs.submit(() -> {
                jobs.runAll(Priority.NORMAL, d, inside);
                d.await();
                return null;
            }));
            for (int i = 0; i < 2 * n; i++) {
                assertEquals(1, runs.get(i), "batch job " + i);
            }
            assertThrows(NullPointerException.class, () -> jobs.runAll(Priority.NORMAL, c, () -> { }, null));
        }
    }
}
