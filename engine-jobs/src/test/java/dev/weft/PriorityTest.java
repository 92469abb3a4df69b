package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/** Priorities hold on every path: picking, starvation, resumed fibers, steals. */
class PriorityTest {

    /**
     * With all three priorities always queued, each lower one still gets its share: at least one pick in
     * 2 × STARVATION_INTERVAL per worker. (The old bound, a reverse scan every 64th pick, always found
     * BACKGROUND first, so NORMAL never ran while FRAME and BACKGROUND both had work.)
     */
    @Test
    void noPriorityWithQueuedWorkStarvesWhileTheOthersAreBusy() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            AtomicLongArray ran = new AtomicLongArray(Priority.COUNT);
            AtomicBoolean stop = new AtomicBoolean();
            Counter chains = new Counter("chains");
            long frameTarget = 64L * 2 * 100;
            // Hold the worker until all three chains are queued: otherwise it runs FRAME picks before the
            // others exist, and those count against them.
            CountDownLatch queued = new CountDownLatch(1);
            CountDownLatch holding = new CountDownLatch(1);
            Counter hold = new Counter("hold");
            jobs.run(Priority.FRAME, "hold", () -> {
                holding.countDown();
                spinUntil(queued);
            }, hold);
            awaitLatch(holding);
            for (Priority p : Priority.values()) {
                jobs.run(p, "chain " + p, new Job() {
                    @Override
                    public void run() {
                        if (ran.incrementAndGet(p.ordinal()) >= frameTarget && p == Priority.FRAME) {
                            stop.set(true);
                        }
                        if (!stop.get()) {
                            jobs.run(p, "chain " + p, this, chains);   // always one queued per priority
                        }
                    }
                }, chains);
            }
            queued.countDown();
            TestSupport.await(hold);
            TestSupport.await(chains);
            long frame = ran.get(Priority.FRAME.ordinal());
            long bound = frame / (2L * WorkPicker.STARVATION_INTERVAL) - 1;
            for (Priority p : List.of(Priority.NORMAL, Priority.BACKGROUND)) {
                long picks = ran.get(p.ordinal());
                assertTrue(picks >= bound, p + " ran " + picks + " times against " + frame + " FRAME jobs: "
                        + "fewer than one in " + 2 * WorkPicker.STARVATION_INTERVAL + " picks (bound " + bound + ")");
            }
        }
    }

    /**
     * A FRAME job that runs a BACKGROUND dependency inline and parks inside it must resume at FRAME: it
     * resumes before queued NORMAL jobs. (It was queued at BACKGROUND, behind all of them.) One worker, so
     * the order is the scheduler's alone; at most one NORMAL job may precede it (a starvation-bound pick).
     */
    @Test
    void aFiberResumesAtTheHighestPriorityOnItsStack() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
            Counter release = new Counter("release");
            release.add(1);
            CountDownLatch gateEntered = new CountDownLatch(1);
            CountDownLatch gate = new CountDownLatch(1);
            JobHandle<Void> frameJob = jobs.submit(Priority.FRAME, "frame job", () -> {
                Counter dep = new Counter("background dependency");
                jobs.run(Priority.BACKGROUND, "background dependency", () -> {
                    release.await();                      // parks with the FRAME job under it on the stack
                    order.add("resumed");
                }, dep);
                dep.await();                              // runs the dependency inline (it is at our bottom)
                return null;
            });
            TestSupport.eventually("the dependency parked", () -> jobs.stats().fibersParked() == 1);
            jobs.submit(Priority.NORMAL, "gate", () -> {  // holds the worker while we queue the rest
                gateEntered.countDown();
                spinUntil(gate);                          // spins: parking would free the worker
                return null;
            });
            awaitLatch(gateEntered);
            Counter normals = new Counter("normals");
            for (int i = 0; i < 20; i++) {
                int n = i;
                jobs.run(Priority.NORMAL, "normal " + n, () -> order.add("normal " + n), normals);
            }
            release.decrement();                          // the fiber becomes ready while the gate runs
            gate.countDown();
            TestSupport.join(frameJob);
            TestSupport.await(normals);
            List<String> seen = List.copyOf(order);
            int at = seen.indexOf("resumed");
            assertTrue(at >= 0 && at <= 1, "the FRAME job's fiber resumed after " + at + " NORMAL jobs: " + seen);
        }
    }

    /**
     * A thief takes FRAME work before NORMAL work from its victims. Worker A's job pushes NORMAL jobs, then
     * FRAME jobs, onto A's own deque and keeps A busy; worker B, let go only after that, runs them all:
     * every FRAME job before any NORMAL one.
     */
    @Test
    void priorityOrderHoldsAcrossSteals() throws Exception {
        try (JobSystem jobs = TestSupport.workersOnly(2)) {
            ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
            CountDownLatch bothBusy = new CountDownLatch(2);
            CountDownLatch pushed = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            Counter stolen = new Counter("stolen");
            JobHandle<Void> victim = jobs.submit(() -> {
                bothBusy.countDown();
                spinUntil(bothBusy);
                for (int i = 0; i < 10; i++) {
                    int n = i;
                    jobs.run(Priority.NORMAL, "normal " + n, () -> order.add("N" + n), stolen);
                }
                for (int i = 0; i < 10; i++) {
                    int n = i;
                    jobs.run(Priority.FRAME, "frame " + n, () -> order.add("F" + n), stolen);
                }
                pushed.countDown();
                spinUntil(done);                          // holds worker A, never pops: all must be stolen
                return null;
            });
            JobHandle<Void> thief = jobs.submit(() -> {
                bothBusy.countDown();
                spinUntil(pushed);                        // then this worker looks for work: steals
                return null;
            });
            TestSupport.join(thief);
            TestSupport.await(stolen);
            done.countDown();
            TestSupport.join(victim);
            List<String> seen = List.copyOf(order);
            assertEquals(20, seen.size(), seen.toString());
            for (int i = 0; i < 10; i++) {
                assertTrue(seen.get(i).startsWith("F"), "a NORMAL job was stolen before a FRAME job: " + seen);
            }
        }
    }

    /** Inside a job: holds the worker (a park would free it for other jobs) until {@code l} opens. */
    static void spinUntil(CountDownLatch l) {
        long deadline = System.nanoTime() + TestSupport.LONG.toNanos();
        while (l.getCount() > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("latch not released in time");
            }
            Thread.onSpinWait();
        }
    }

    private static void awaitLatch(CountDownLatch l) {
        try {
            if (!l.await(TestSupport.LONG.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released in time\n" + TestSupport.threadDump());
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
