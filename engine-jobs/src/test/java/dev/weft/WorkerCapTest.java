package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * JobSystemBuilder.maxWorkers (PriorityCaps): the cap holds at every start, resume and inline run;
 * it is work-conserving; and it keeps a worker for FRAME work queued beside capped work. Every test is
 * structural: a broken cap hangs a job system (caught by the long timeout) or breaks a count, never a
 * wall-clock bound. Workers only (waitersHelp off): caps count workers, and a waiting test thread is not one.
 */
class WorkerCapTest {
    private static final int BG = Priority.BACKGROUND.ordinal();

    /**
     * Counts, per worker, the BACKGROUND jobs it runs now (nested ones included), and over all workers
     * how many run BACKGROUND by a regular slot: a worker that took its slot over the cap because it had
     * nothing else to do (overflow, the work-conserving rule) is not bound by the cap. Jobs call
     * {@link #enter} when they start and after every wait, {@link #exit} before every wait and at their end.
     */
    private static final class Census {
        final Scheduler s;
        final AtomicIntegerArray depth;
        final AtomicIntegerArray counted;
        final AtomicInteger regular = new AtomicInteger();
        final AtomicInteger maxRegular = new AtomicInteger();
        final AtomicInteger overflowEntries = new AtomicInteger();
        final AtomicInteger unslotted = new AtomicInteger();   // a BACKGROUND job ran on a worker holding no slot

        Census(JobSystem jobs) {
            s = jobs.schedulerForTests();
            depth = new AtomicIntegerArray(jobs.workerCount());
            counted = new AtomicIntegerArray(jobs.workerCount());
        }

        void enter() {
            Worker w = Worker.current(s);
            if ((w.capHeld & (1 << BG)) == 0) {
                unslotted.incrementAndGet();
            }
            if (depth.getAndIncrement(w.index) == 0) {
                if ((w.capOverflow & (1 << BG)) != 0) {
                    overflowEntries.incrementAndGet();
                } else {
                    counted.set(w.index, 1);
                    maxRegular.accumulateAndGet(regular.incrementAndGet(), Math::max);
                }
            }
        }

        void exit() {
            int i = Worker.current(s).index;
            if (depth.decrementAndGet(i) == 0 && counted.getAndSet(i, 0) == 1) {
                regular.decrementAndGet();
            }
        }
    }

    static void spin(int n) {
        for (int i = 0; i < n; i++) {
            Thread.onSpinWait();
        }
    }

    /**
     * (a) Many rounds of BACKGROUND jobs that spin, run children inline (a counter wait, a join), park
     * on a counter and resume, beside FRAME jobs that run BACKGROUND children inline: at no start or
     * resume do more workers than the cap run BACKGROUND by regular slots, and every BACKGROUND job runs
     * on a worker holding a slot.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void theCapIsNeverExceededAtAnyStartOrResume(int workers) {
        int cap = workers - 1;
        int rounds = TestSupport.FULL ? 400 : 60;
        try (JobSystem jobs = TestSupport.workersOnly(workers)) {
            Census c = new Census(jobs);
            for (int r = 0; r < rounds; r++) {
                Counter all = new Counter("round " + r);
                for (int k = 0; k < 3 * workers; k++) {
                    int kind = k % 3;
                    jobs.run(Priority.BACKGROUND, "bg " + k, () -> background(jobs, c, kind), all);
                    jobs.run(Priority.FRAME, "frame " + k, () -> {
                        Counter kids = new Counter("frame kids");
                        jobs.run(Priority.BACKGROUND, "bg kid of frame", () -> leaf(c), kids);
                        kids.await();                      // inline help: a FRAME stack takes a BACKGROUND slot
                    }, all);
                }
                TestSupport.await(all);
            }
            assertEquals(0, c.unslotted.get(), "BACKGROUND jobs ran on a worker holding no BACKGROUND slot");
            assertTrue(c.maxRegular.get() <= cap, "up to " + c.maxRegular.get() + " workers ran BACKGROUND by "
                    + "regular slots at once; the cap is " + cap + " (" + c.overflowEntries.get() + " overflow entries)");
            // Eventually, not at once: a fiber that parked holding a slot is released by its old carrier
            // after the park (Worker.mount), and by then the fiber may have resumed on another worker and
            // ended its round. A leaked slot never comes back and still fails here.
            PriorityCaps caps = jobs.schedulerForTests().caps;
            TestSupport.eventually(() -> "every slot given back after every job ended: " + caps,
                    () -> caps.running(BG) == 0);
        }
    }

    private static void background(JobSystem jobs, Census c, int kind) {
        c.enter();
        spin(2_000);
        if (kind == 0) {                                   // children run inline (or stolen), then a park
            Counter kids = new Counter("kids");
            jobs.run(Priority.BACKGROUND, "kid", () -> leaf(c), kids);
            jobs.run(Priority.BACKGROUND, "kid", () -> leaf(c), kids);
            c.exit();
            kids.await();
            c.enter();
        } else if (kind == 1) {                            // a join, inline if still at the bottom
            JobHandle<Integer> h = jobs.submit(Priority.BACKGROUND, "joined", () -> {
                leaf(c);
                return 1;
            });
            c.exit();
            h.join();
            c.enter();
        } else {                                           // parks on a counter a NORMAL job releases
            Counter gate = new Counter("gate");
            gate.add(1);
            jobs.run(Priority.NORMAL, "opener", () -> {
                spin(1_000);
                gate.decrement();
            }, null);
            c.exit();
            gate.await();                                  // resumes wherever a slot is
            c.enter();
        }
        spin(2_000);
        c.exit();
    }

    private static void leaf(Census c) {
        c.enter();
        spin(2_000);
        c.exit();
    }

    /**
     * (b) Work-conserving: as many BACKGROUND jobs as workers, each spinning until all have arrived.
     * They can only finish if every worker runs one, the cap (workers - 1) notwithstanding.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void withOnlyBackgroundWorkQueuedEveryWorkerRunsIt(int workers) {
        try (JobSystem jobs = TestSupport.workersOnly(workers)) {
            for (int round = 0; round < 20; round++) {
                AtomicInteger arrived = new AtomicInteger();
                AtomicBoolean giveUp = new AtomicBoolean();
                Counter all = new Counter("barrier round " + round);
                for (int k = 0; k < workers; k++) {
                    jobs.run(Priority.BACKGROUND, "party " + k, () -> {
                        arrived.incrementAndGet();
                        while (arrived.get() < workers && !giveUp.get()) {
                            Thread.onSpinWait();
                        }
                    }, all);
                }
                if (!all.await(TestSupport.LONG)) {
                    int seen = arrived.get();
                    giveUp.set(true);
                    throw new AssertionError("only " + seen + " of " + workers + " BACKGROUND parties ran at once: "
                            + "a worker stayed idle while only capped work was queued");
                }
            }
        }
    }

    /**
     * (c) With one worker spinning in a BACKGROUND job (the cap of 2 workers), the free worker runs a
     * chain of FRAME jobs while BACKGROUND spinners are queued beside them. Its starvation-bound scans
     * (every 64th starts at a lower priority) would take a spinner and hold it until the FRAME chain,
     * which it no longer runs, releases every spinner: the cap keeps it on FRAME.
     */
    @Test
    void frameWorkRunsOnTheFreeWorkerWhileBackgroundHoldsTheCap() {
        try (JobSystem jobs = TestSupport.workersOnly(2)) {
            AtomicBoolean release = new AtomicBoolean();
            AtomicBoolean first = new AtomicBoolean();
            Counter all = new Counter("all");
            Job spinner = () -> {
                first.set(true);
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            };
            jobs.run(Priority.BACKGROUND, "holds the cap", spinner, all);
            TestSupport.eventually("the first BACKGROUND job started", first::get);
            AtomicInteger links = new AtomicInteger();
            jobs.run(Priority.FRAME, "chain start", new Job() {
                @Override
                public void run() {
                    if (links.get() == 0) {
                        for (int k = 0; k < 20; k++) {
                            jobs.run(Priority.BACKGROUND, "queued spinner", spinner, all);
                        }
                    }
                    if (links.incrementAndGet() < 300) {
                        jobs.run(Priority.FRAME, "chain", this, all);   // queued before this one ends
                    } else {
                        release.set(true);
                    }
                }
            }, all);
            boolean done = all.await(TestSupport.LONG);
            int reached = links.get();
            release.set(true);
            assertTrue(done, "the FRAME chain stopped at link " + reached + " of 300: the free worker took a "
                    + "queued BACKGROUND job over the cap while FRAME work was queued");
        }
    }

    /**
     * (c, inline help) A NORMAL job on the free worker queues a BACKGROUND spinner and a FRAME job that
     * releases it, then waits for the spinner (a counter; a join). Running the spinner inline would need a
     * second BACKGROUND slot: the waiter parks instead and its worker runs the FRAME job.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void inlineHelpDoesNotTakeACappedJobOverTheCap(boolean join) {
        try (JobSystem jobs = TestSupport.workersOnly(2)) {
            AtomicBoolean release = new AtomicBoolean();
            AtomicBoolean first = new AtomicBoolean();
            Job spinner = () -> {
                first.set(true);
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            };
            Counter all = new Counter("all");
            jobs.run(Priority.BACKGROUND, "holds the cap", spinner, all);
            TestSupport.eventually("the first BACKGROUND job started", first::get);
            jobs.run(Priority.NORMAL, "waiter", () -> {
                if (join) {
                    JobHandle<Object> h = jobs.submit(Priority.BACKGROUND, "spinner", () -> {
                        spinner.run();
                        return null;
                    });
                    jobs.run(Priority.FRAME, "release", () -> release.set(true), null);
                    h.join();
                } else {
                    Counter c = new Counter("spinner");
                    jobs.run(Priority.BACKGROUND, "spinner", spinner, c);
                    jobs.run(Priority.FRAME, "release", () -> release.set(true), null);
                    c.await();
                }
            }, all);
            boolean done = all.await(TestSupport.LONG);
            release.set(true);
            assertTrue(done, "the waiter ran the BACKGROUND spinner inline over the cap; the FRAME job never ran");
        }
    }

    /**
     * A parked job holds no worker, so no slot: while a BACKGROUND job waits on a counter, the count of
     * workers running BACKGROUND goes back to 0 (its worker gave the slot back when the fiber unmounted),
     * and the job finishes after it resumes.
     */
    @Test
    void aParkedBackgroundJobHoldsNoSlot() {
        try (JobSystem jobs = TestSupport.workersOnly(2)) {
            PriorityCaps caps = jobs.schedulerForTests().caps;
            Counter gate = new Counter("gate");
            gate.add(1);
            AtomicBoolean waiting = new AtomicBoolean();
            Counter done = new Counter("done");
            jobs.run(Priority.BACKGROUND, "parks", () -> {
                waiting.set(true);
                gate.await();
            }, done);
            try {
                TestSupport.eventually("the job is waiting", waiting::get);
                TestSupport.eventually(() -> "no slot held while the only BACKGROUND job is parked: " + caps,
                        () -> caps.running(BG) == 0 && jobs.stats().fibersParked() == 1);
            } finally {
                gate.decrement();                          // else close() would wait for the parked job
            }
            TestSupport.await(done);
            TestSupport.eventually(() -> "no slot held after the job ended: " + caps, () -> caps.running(BG) == 0);
        }
    }

    @Test
    void argumentsAreChecked() {
        var tooFew = assertThrows(IllegalArgumentException.class,
                () -> JobSystem.builder().maxWorkers(Priority.BACKGROUND, 0));
        assertTrue(tooFew.getMessage().contains("at least one worker"), tooFew.getMessage());
        var tooMany = assertThrows(IllegalArgumentException.class,
                () -> JobSystem.builder().workers(2).maxWorkers(Priority.FRAME, 3).build());
        assertTrue(tooMany.getMessage().contains("exceeds the 2 workers"), tooMany.getMessage());
        assertThrows(NullPointerException.class, () -> JobSystem.builder().maxWorkers(null, 1));
    }

    @Test
    void defaultsCapBackgroundAtAllButOneWorker() {
        try (JobSystem two = TestSupport.workersOnly(2); JobSystem one = TestSupport.workersOnly(1);
             JobSystem set = JobSystem.builder().workers(4).maxWorkers(Priority.NORMAL, 2)
                     .maxWorkers(Priority.BACKGROUND, 4).build()) {
            PriorityCaps c2 = two.schedulerForTests().caps;
            assertEquals(1 << BG, c2.cappedMask);
            assertEquals(1, c2.limit(BG));
            assertEquals(0, one.schedulerForTests().caps.cappedMask, "one worker: no cap");
            PriorityCaps c4 = set.schedulerForTests().caps;
            assertEquals(1 << Priority.NORMAL.ordinal(), c4.cappedMask, "NORMAL at 2; BACKGROUND at 4 = no cap");
        }
    }
}
