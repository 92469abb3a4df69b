package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Prerequisites}: jobs that start when counters and handles complete, with nothing parked meanwhile. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PrerequisitesTest {

    /** 200 dependents of one held counter: none runs, no fiber parks, no wait is counted; all run on release. */
    @Test
    void nothingRunsAndNothingParksUntilThePrerequisiteCompletes() {
        try (JobSystem jobs = TestSupport.system(2)) {
            Counter gate = new Counter("gate");
            gate.add(1);
            Counter dependents = new Counter("dependents");
            AtomicInteger ran = new AtomicInteger();
            for (int i = 0; i < 200; i++) {
                jobs.after(gate).run(Priority.NORMAL, "dependent", ran::incrementAndGet, dependents);
            }
            assertEquals(200, dependents.value(), "a pending dependent is counted from its submission");
            for (int i = 0; i < 20; i++) {                 // let the workers look for work for a while
                TestSupport.join(jobs.submit(() -> 0));
            }
            JobSystemStats stats = jobs.stats();
            assertEquals(0, ran.get(), "a dependent ran before its prerequisite completed");
            assertEquals(0, stats.fibersParked(), "a fiber parked for pending dependents: " + stats);
            assertEquals(0, stats.waits(), "a wait was counted for pending dependents: " + stats);
            gate.decrement();
            TestSupport.await(dependents);
            assertEquals(200, ran.get());
            assertEquals(0, jobs.stats().waits(), "dependents were released by parking somewhere");
        }
    }

    @Test
    void aJobWithSeveralPrerequisitesRunsOnceAfterAllOfThem() {
        try (JobSystem jobs = TestSupport.system(2)) {
            for (int round = 0; round < 300; round++) {
                AtomicInteger before = new AtomicInteger();
                Counter physics = new Counter("physics");
                for (int i = 0; i < 4; i++) {
                    jobs.run(Priority.FRAME, "physics", before::incrementAndGet, physics);
                }
                JobHandle<Integer> anim = jobs.submit(Priority.FRAME, "anim", () -> { before.incrementAndGet(); return 7; });
                JobHandle<Integer> skin = jobs.after(physics).and(anim)
                        .submit(Priority.FRAME, "skin", () -> before.get() * 10 + anim.join());
                assertEquals(57, TestSupport.join(skin), "round " + round + ": skin ran before all prerequisites");
            }
        }
    }

    /** A diamond, many times: A before B and C, both before D; each runs exactly once and in order. */
    @Test
    void aDiamondRunsEveryNodeOnceInDependencyOrder() {
        try (JobSystem jobs = TestSupport.system(2)) {
            int rounds = TestSupport.FULL ? 20_000 : 2_000;
            for (int round = 0; round < rounds; round++) {
                AtomicIntegerArray order = new AtomicIntegerArray(4);
                AtomicInteger clock = new AtomicInteger();
                Counter done = new Counter("diamond");
                JobHandle<Void> a = jobs.submit(Priority.NORMAL, "A", () -> { order.set(0, clock.incrementAndGet()); return null; });
                JobHandle<Void> b = jobs.after(a).submit(Priority.NORMAL, "B", () -> { order.set(1, clock.incrementAndGet()); return null; });
                Counter c = new Counter("C");
                jobs.after(a).run(Priority.NORMAL, "C", () -> order.set(2, clock.incrementAndGet()), c);
                jobs.after(c).and(b).run(Priority.NORMAL, "D", () -> order.set(3, clock.incrementAndGet()), done);
                TestSupport.await(done);
                assertEquals(4, clock.get(), "round " + round + ": a node ran twice or not at all");
                assertTrue(order.get(0) < order.get(1) && order.get(0) < order.get(2), "round " + round + ": B or C before A");
                assertTrue(order.get(3) > order.get(1) && order.get(3) > order.get(2), "round " + round + ": D before B or C");
            }
        }
    }

    @Test
    void aFailedPrerequisiteFailsTheJobWithoutRunningItAndNamesThePrerequisite() {
        try (JobSystem jobs = TestSupport.system(2)) {
            IllegalStateException boom = new IllegalStateException("mesh.obj line 12: bad face");
            JobHandle<Integer> load = jobs.submit(Priority.NORMAL, "load mesh", () -> { throw boom; });
            AtomicBoolean ran = new AtomicBoolean();
            Counter dependents = new Counter("dependents");
            JobHandle<Integer> build = jobs.after(load).submit(Priority.NORMAL, "build bvh", () -> {
                ran.set(true);
                return 1;
            }, dependents);
            JobFailedException e = assertThrows(JobFailedException.class, () -> TestSupport.join(build));
            assertFalse(ran.get(), "the dependent ran although its prerequisite failed");
            assertEquals("build bvh", e.jobName());
            JobFailedException cause = assertInstanceOf(JobFailedException.class, e.getCause());
            assertEquals("load mesh", cause.jobName(), "the cause must name the prerequisite");
            assertTrue(e.getMessage().contains("load mesh") && e.getMessage().contains("bad face"), e.getMessage());
            TestSupport.await(new Counter());
            assertThrows(JobFailedException.class, dependents::await, "the dependent's counter must record it");

            Counter physics = new Counter("physics");
            jobs.run(Priority.NORMAL, "step", () -> { throw new ArithmeticException("NaN velocity"); }, physics);
            JobHandle<Integer> cull = jobs.after(physics).submit(Priority.NORMAL, "cull", () -> 1);
            JobFailedException viaCounter = assertThrows(JobFailedException.class, () -> TestSupport.join(cull));
            assertEquals("physics", ((JobFailedException) viaCounter.getCause()).jobName());
            assertTrue(viaCounter.getMessage().contains("NaN velocity"), viaCounter.getMessage());
            // A counter is named as one: it said "job 'physics' failed: job 'step', which it waited on, failed".
            assertTrue(viaCounter.getMessage().contains("counter 'physics', which it waited on"), viaCounter.getMessage());
            String counted = viaCounter.getCause().getMessage();
            assertTrue(counted.startsWith("counter 'physics' counts a job that failed: job 'step' failed: ")
                    && counted.contains("NaN velocity") && !counted.contains("waited on"), counted);

            // A counter named as the job it counts is still a counter (only a JobGraph node's stands for its job).
            Counter step = new Counter("step");
            jobs.run(Priority.NORMAL, "step", () -> { throw new ArithmeticException("NaN velocity"); }, step);
            JobHandle<Integer> draw = jobs.after(step).submit(Priority.NORMAL, "draw", () -> 1);
            JobFailedException sameName = assertThrows(JobFailedException.class, () -> TestSupport.join(draw));
            assertTrue(sameName.getMessage().contains("counter 'step', which it waited on"), sameName.getMessage());
        }
    }

    @Test
    void aCancelledPrerequisiteCancelsTheJob() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            AtomicBoolean release = new AtomicBoolean();
            AtomicBoolean holding = new AtomicBoolean();
            jobs.run(() -> {
                holding.set(true);
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            });
            TestSupport.eventually("the only worker is held", holding::get);   // else it might run `queued` first
            JobHandle<Integer> queued = jobs.submit(() -> 1);
            AtomicBoolean ran = new AtomicBoolean();
            Counter counted = new Counter("counted");
            JobHandle<Integer> dependent = jobs.after(queued).submit(Priority.NORMAL, "dependent", () -> {
                ran.set(true);
                return 2;
            }, counted);
            assertTrue(queued.cancel());
            release.set(true);
            assertThrows(JobCancelledException.class, () -> TestSupport.join(dependent));
            assertTrue(dependent.isCancelled());
            TestSupport.await(counted);                        // completed, and no failure recorded
            assertFalse(ran.get());
        }
    }

    @Test
    void cancellingAPendingJobsHandleCompletesItAtOnceAndItNeverRuns() {
        try (JobSystem jobs = TestSupport.system(2)) {
            Counter gate = new Counter("gate");
            gate.add(1);
            Counter counted = new Counter("counted");
            AtomicBoolean ran = new AtomicBoolean();
            JobHandle<Integer> h = jobs.after(gate).submit(Priority.NORMAL, "pending", () -> { ran.set(true); return 1; }, counted);
            assertTrue(h.cancel());
            assertTrue(counted.isDone(), "a cancelled pending job must give its counter back at once");
            gate.decrement();
            TestSupport.join(jobs.submit(() -> 0));
            assertFalse(ran.get());
        }
    }

    /**
     * Speculative work queued behind a counter that does not complete, cancelled when the player turns away:
     * each cancelled job, its closure and its continuation node stayed on the counter until it completed
     * (~540 B plus the captured state a job; heap 56 to 544 MB over 1,000,000 cancels, never freed if the
     * counter never drains). Now a cancel drops them: the payloads are collectable and the counter's waiter
     * stack stays as short as its live continuations; a live dependent still runs.
     */
    @Test
    void cancelledPendingJobsLeaveNothingBehindOnACounterThatDoesNotComplete() {
        try (JobSystem jobs = TestSupport.system(2)) {
            Counter levelStreamed = new Counter("levelStreamed");
            levelStreamed.add(1);
            JobHandle<Integer> live = jobs.after(levelStreamed).submit(Priority.NORMAL, "live", () -> 7);
            List<WeakReference<byte[]>> payloads = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                payloads.add(submitAndCancel(jobs, levelStreamed));
            }
            int nodes = levelStreamed.waiterNodes();
            assertTrue(nodes <= 40, "20,000 cancelled dependents left " + nodes + " nodes on the counter");
            boolean collected = false;
            for (int round = 0; round < 100 && !collected; round++) {   // bounded GC loop
                System.gc();
                collected = payloads.stream().allMatch(r -> r.refersTo(null));
                if (!collected) {
                    TestSupport.sleepMillis(20);
                }
            }
            long kept = payloads.stream().filter(r -> !r.refersTo(null)).count();
            assertTrue(collected, kept + " of 20,000 cancelled jobs' captured payloads still reachable after GC");
            assertFalse(live.isDone());
            levelStreamed.decrement();
            assertEquals(7, TestSupport.join(live), "the live dependent still runs");
        }
    }

    private static WeakReference<byte[]> submitAndCancel(JobSystem jobs, Counter prerequisite) {
        byte[] payload = new byte[256];                   // what the speculative job would have used
        JobHandle<Integer> h = jobs.after(prerequisite).submit(Priority.BACKGROUND, "speculative",
                () -> payload.length);
        assertTrue(h.cancel(), "cancelled before its prerequisite completed");
        return new WeakReference<>(payload);
    }

    @Test
    void aGroupCancelledWhileTheJobWaitsCancelsItWhenThePrerequisitesComplete() {
        try (JobSystem jobs = TestSupport.system(2)) {
            JobGroup level = jobs.newGroup("level 3");
            Counter gate = new Counter("gate");
            gate.add(1);
            Counter counted = new Counter("counted");
            AtomicBoolean ran = new AtomicBoolean();
            level.after(gate).run(Priority.BACKGROUND, "stream chunk", () -> ran.set(true), counted);
            level.cancel();
            gate.decrement();
            TestSupport.await(counted);
            assertFalse(ran.get(), "a job of a cancelled group ran");
        }
    }

    @Test
    void parallelForAfterRunsEveryRangeAfterThePrerequisiteAndFailsOnce() {
        try (JobSystem jobs = TestSupport.system(2)) {
            AtomicBoolean simulated = new AtomicBoolean();
            Counter simulate = new Counter("simulate");
            jobs.run(Priority.FRAME, "simulate", () -> { Thread.sleep(5); simulated.set(true); }, simulate);
            boolean[] culled = new boolean[10_000];
            AtomicInteger early = new AtomicInteger();
            Counter cull = new Counter("cull");
            jobs.after(simulate).parallelFor(Priority.FRAME, 0, culled.length, 64, (s, e, w) -> {
                if (!simulated.get()) {
                    early.incrementAndGet();
                }
                for (int i = s; i < e; i++) {
                    culled[i] = true;
                }
            }, cull);
            TestSupport.await(cull);
            assertEquals(0, early.get(), "ranges ran before the prerequisite completed");
            for (boolean b : culled) {
                assertTrue(b);
            }

            Counter broken = new Counter("broken");
            jobs.run(Priority.FRAME, "explodes", () -> { throw new IllegalStateException("boom"); }, broken);
            AtomicInteger rangesRun = new AtomicInteger();
            Counter after = new Counter("after broken");
            jobs.after(broken).parallelFor(Priority.FRAME, 0, 10_000, 64, (s, e, w) -> rangesRun.incrementAndGet(), after);
            JobFailedException f = assertThrows(JobFailedException.class, () -> TestSupport.await(after));
            assertEquals(0, rangesRun.get());
            assertEquals(0, f.getSuppressed().length, "the failure must be recorded once, not once per range");
        }
    }

    /**
     * An empty range still waits for its prerequisites and still carries their failure: {@code after(x)
     * .parallelFor} over {@code [0, 0)} returned at once without counting anything, so its counter read zero
     * while {@code x} ran, and a failure of {@code x} vanished (a frame graph's cull over zero visible objects
     * let the nodes after it start early, found by a probe).
     */
    @Test
    void anEmptyParallelForAfterStillWaitsForItsPrerequisitesAndCarriesTheirFailure() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            Counter simulate = new Counter("simulate");
            jobs.run(Priority.FRAME, "simulate", release::await, simulate);
            Counter cull = new Counter("cull");
            try {
                jobs.after(simulate).parallelFor(Priority.FRAME, 0, 0, 64, (s, e, w) -> { }, cull);
                assertEquals(1, cull.value(), "the empty cull counts until simulate ends");
                assertFalse(cull.await(Duration.ofMillis(50)), "the empty cull ended before simulate");
            } finally {
                release.countDown();
            }
            TestSupport.await(cull);

            Counter broken = new Counter("broken");
            jobs.run(Priority.FRAME, "explodes", () -> { throw new IllegalStateException("boom"); }, broken);
            Counter after = new Counter("after broken");
            jobs.after(broken).parallelFor(Priority.FRAME, 5, 5, 64, (s, e, w) -> { }, after);
            JobFailedException f = assertThrows(JobFailedException.class, () -> TestSupport.await(after));
            assertEquals("boom", rootMessage(f), "the prerequisite's failure is recorded");
        }
    }

    /**
     * A failure at the start of a long chain of {@code after(...)} jobs: each level wrapped the one before,
     * so the cause chain was as deep as the job chain, and printing it (a logger's printStackTrace) threw
     * StackOverflowError from 3,000 levels on (a probe). The cause chain now has the same depth at any
     * length, and still names the job where the chain failed and its root cause.
     */
    @Test
    void aFailureAtTheStartOfALongChainPrintsAndNamesWhereItStarted() {
        try (JobSystem jobs = TestSupport.system(2)) {
            JobHandle<Integer> previous = jobs.submit(Priority.NORMAL, "load header", () -> {
                throw new IllegalStateException("header corrupt");
            });
            for (int i = 1; i < 5_000; i++) {
                previous = jobs.after(previous).submit(Priority.NORMAL, "step " + i, () -> 1);
            }
            JobHandle<Integer> last = previous;
            JobFailedException f = assertThrows(JobFailedException.class, () -> last.join(TestSupport.LONG));
            int depth = 0;
            for (Throwable t = f; t != null; t = t.getCause()) {
                depth++;
            }
            assertTrue(depth <= 5, "cause chain " + depth + " deep for a chain of 5,000 jobs");
            java.io.StringWriter printed = new java.io.StringWriter();
            f.printStackTrace(new java.io.PrintWriter(printed));          // threw StackOverflowError before
            assertTrue(printed.toString().contains("header corrupt"), "the root cause is printed");
            assertTrue(f.getMessage().contains("load header") && f.getMessage().contains("header corrupt"),
                    f.getMessage());
        }
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }

    /**
     * Registration races completion: prerequisites end on the workers while the test thread registers
     * dependents on them. Every dependent runs exactly once, after all of its prerequisites.
     */
    @Test
    void registrationRacingCompletionNeitherLosesNorDuplicatesAJob() {
        try (JobSystem jobs = TestSupport.system(2)) {
            SplittableRandom random = new SplittableRandom(42);
            int rounds = TestSupport.FULL ? 1_000 : 200;
            for (int round = 0; round < rounds; round++) {
                int n = 200;
                List<JobHandle<Void>> prerequisites = new ArrayList<>();
                AtomicIntegerArray ended = new AtomicIntegerArray(n);
                for (int i = 0; i < n; i++) {
                    int id = i;
                    prerequisites.add(jobs.submit(Priority.NORMAL, "p" + i, () -> { ended.set(id, 1); return null; }));
                }
                Counter all = new Counter("dependents");
                AtomicIntegerArray runs = new AtomicIntegerArray(n);
                AtomicInteger early = new AtomicInteger();
                for (int i = 0; i < n; i++) {
                    int a = random.nextInt(n);
                    int b = random.nextInt(n);
                    int id = i;
                    jobs.after(prerequisites.get(a), prerequisites.get(b)).run(Priority.NORMAL, "d" + i, () -> {
                        if (ended.get(a) == 0 || ended.get(b) == 0) {
                            early.incrementAndGet();
                        }
                        runs.incrementAndGet(id);
                    }, all);
                }
                TestSupport.await(all);
                assertEquals(0, early.get(), "round " + round + ": a dependent ran before a prerequisite ended");
                for (int i = 0; i < n; i++) {
                    assertEquals(1, runs.get(i), "round " + round + ": dependent " + i + " ran " + runs.get(i) + " times");
                }
            }
        }
    }

    @Test
    void closeRunsADependentReleasedByARunningJobAndShutdownNowCancelsOne() throws Exception {
        JobSystem jobs = TestSupport.system(2);
        CompletableFuture<Void> go = new CompletableFuture<>();
        Counter first = new Counter("first");
        jobs.run(Priority.NORMAL, "first", () -> go.join(), first);
        AtomicBoolean ran = new AtomicBoolean();
        jobs.after(first).run(Priority.NORMAL, "second", () -> ran.set(true), null);
        jobs.shutdown();
        go.complete(null);
        assertTrue(jobs.awaitTermination(TestSupport.LONG));
        assertTrue(ran.get(), "a graceful close dropped a job whose prerequisite completed while closing");

        JobSystem stopping = TestSupport.system(2);
        Counter held = new Counter("held");
        held.add(1);
        Counter counted = new Counter("counted");
        AtomicBoolean ranAfterStop = new AtomicBoolean();
        stopping.after(held).run(Priority.NORMAL, "after stop", () -> ranAfterStop.set(true), counted);
        stopping.shutdownNow();
        held.decrement();
        TestSupport.await(counted);
        assertFalse(ranAfterStop.get(), "a job released after shutdownNow ran");
        assertTrue(stopping.awaitTermination(TestSupport.LONG));
        assertThrows(java.util.concurrent.RejectedExecutionException.class,
                () -> stopping.after(held).run(Priority.NORMAL, "refused", () -> {}, null));
    }

    /**
     * shutdownNow() returns every job that never ran, those still waiting for prerequisites included, and
     * completes their counters at once: before, none was in the list, and the counter of one waiting on a
     * counter nothing would decrement stayed up after termination (a waiter on it hung). Found by a probe
     * on the public API.
     */
    @Test
    void shutdownNowCancelsAndListsTheJobsStillWaitingForPrerequisites() throws Exception {
        JobSystem jobs = TestSupport.system(2);
        Counter never = new Counter("never decremented");
        never.add(1);
        CompletableFuture<Void> go = new CompletableFuture<>();
        JobHandle<Object> running = jobs.submit(Priority.NORMAL, "running", () -> go.join());
        Counter dependents = new Counter("dependents");
        AtomicInteger ran = new AtomicInteger();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            jobs.after(never).run(Priority.NORMAL, "after counter " + i, ran::incrementAndGet, dependents);
            jobs.after(running).run(Priority.NORMAL, "after handle " + i, ran::incrementAndGet, dependents);
            names.add("after counter " + i);
            names.add("after handle " + i);
        }
        JobHandle<Integer> pendingHandle = jobs.after(never).submit(Priority.FRAME, "pending handle", () -> 1);

        List<String> listed = jobs.shutdownNow().stream().map(JobInfo::name).toList();

        for (String name : names) {
            assertTrue(listed.contains(name), name + " is in shutdownNow's list: " + listed);
        }
        assertTrue(listed.contains("pending handle"), "a pending handle is listed too: " + listed);
        assertEquals(0, dependents.value(), "their counter is complete when shutdownNow returns");
        assertTrue(pendingHandle.isCancelled(), "a pending handle reports cancelled");
        go.complete(null);                                      // the running job ends; its dependents stay cancelled
        assertTrue(jobs.awaitTermination(TestSupport.LONG));
        never.decrement();                                      // releasing them now changes nothing
        assertEquals(0, ran.get(), "no listed job ran");
        assertEquals(0, dependents.value());
        assertEquals(listed.size(), jobs.shutdownNow().size(), "each listed once, and nothing new");
    }

    /**
     * Acceptance racing shutdownNow: a thread and a job register dependents of a counter that never
     * completes until they are refused. Every accepted one is in shutdownNow's list (their counter ends at
     * zero); none is listed twice or lost between the acceptance's add and its re-read of the run state.
     */
    @Test
    void everyDependentAcceptedWhileShutdownNowRacesIsListed() throws Exception {
        int rounds = TestSupport.FULL ? 2_000 : 200;
        SplittableRandom random = new SplittableRandom(13);
        for (int round = 0; round < rounds; round++) {
            JobSystem jobs = TestSupport.system(2);
            Counter never = new Counter("never");
            never.add(1);
            Counter dependents = new Counter("dependents");
            AtomicInteger accepted = new AtomicInteger();
            Runnable register = () -> {
                try {
                    for (;;) {
                        jobs.after(never).run(Priority.NORMAL, "dependent", () -> { }, dependents);
                        accepted.incrementAndGet();
                    }
                } catch (java.util.concurrent.RejectedExecutionException refused) {
                    // shutdownNow was called: stop
                }
            };
            Thread outside = Thread.ofPlatform().start(register);
            jobs.run(Priority.NORMAL, "registers from a job", register::run, null);
            TestSupport.sleepMillis(random.nextInt(3));
            List<JobInfo> listed = jobs.shutdownNow();
            outside.join();
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "round " + round);
            long dependentsListed = listed.stream().filter(i -> i.name().equals("dependent")).count();
            assertEquals(accepted.get(), dependentsListed, "round " + round + ": accepted dependents listed");
            assertEquals(0, dependents.value(), "round " + round + ": their counter completed");
        }
    }

    @Test
    void misuseIsRefusedWithAMessage() {
        try (JobSystem jobs = TestSupport.system(1)) {
            NullPointerException e = assertThrows(NullPointerException.class, () -> jobs.after((Counter) null));
            assertTrue(e.getMessage().contains("prerequisite counter 0 is null"), e.getMessage());
            assertThrows(NullPointerException.class, () -> jobs.after(new Counter()).run(Priority.NORMAL, "x", null, null));
            assertThrows(IllegalArgumentException.class,
                    () -> jobs.after(new Counter()).parallelFor(Priority.NORMAL, 5, 1, 1, (s, e2, w) -> {}, new Counter()));
        }
    }
}
