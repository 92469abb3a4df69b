package dev.weft;

import static dev.weft.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The watchdog's WAIT_CYCLE reports over a game's life: a deadlock broken by cancelling the level and
 * formed again by the next level load is a new deadlock and is reported again. The watchdog kept the
 * reported cycles as signatures of job and counter names, never pruned: the second time a cycle of the
 * same names formed it said nothing (a probe: level 3 of 3 silent), and the set grew with every distinct
 * cycle for the system's life. And a cycle through a wait for a target above zero ("until at most N
 * remain") that can never end is a cycle: it was no edge of the graph, so such a deadlock hung silently.
 */
@Timeout(120)
class WatchdogCycleReportTest {

    @Test
    void aCycleFormedAgainAfterItsLevelWasCancelledIsReportedAgain() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        JobSystem jobs = JobSystem.builder().name("cycle-again").workers(2)
                .watchdog(Duration.ofMillis(50), reports::add).build();
        try {
            // Both jobs park on the gate first, so each level forms the same cycle of two fibers (job b would
            // otherwise run a queued job a inline, and a's wait on b's counter is refused as a wait on its own
            // stack): the same names each level, which a name-keyed watchdog reported once.
            for (int level = 1; level <= 3; level++) {
                JobGroup g = jobs.newGroup("level " + level);
                Counter aDone = new Counter("a done");
                Counter bDone = new Counter("b done");
                Counter gate = new Counter("both submitted");
                gate.add(1);
                g.run(Priority.NORMAL, "job a", () -> { gate.await(); bDone.await(); }, aDone);
                g.run(Priority.NORMAL, "job b", () -> { gate.await(); aDone.await(); }, bDone);
                eventually("both jobs parked on the gate", () -> waitingOn(jobs, gate) == 2);
                gate.decrement();
                int expected = level;
                eventually(() -> "level " + expected + ": a cycle report for each level so far; reports "
                        + names(cycles(reports)) + "; findWaitCycles " + jobs.findWaitCycles().size(),
                        () -> cycles(reports).size() >= expected);
                g.cancel();
                aDone.await();
                bDone.await();
            }
            assertEquals(3, cycles(reports).size(), "one report per level: " + names(cycles(reports)));
        } finally {
            jobs.shutdownNow();
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated after shutdownNow");
        }
    }

    /**
     * A level's finisher waits until at most one chunk remains ({@code chunks.await(1)}); two of the three
     * chunks wait for the finisher, the third for a counter the test holds: two chunks can never end, more
     * than the target, so the finisher never ends either. On the old code no cycle was found (the probe:
     * 0 reports, 4 long waits, over 1.5 s).
     */
    @Test
    void aCycleThroughAWaitForATargetAboveZeroIsReported() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        JobSystem jobs = JobSystem.builder().name("target-cycle").workers(2)
                .watchdog(Duration.ofMillis(50), reports::add).build();
        try {
            JobGroup level = jobs.newGroup("level");
            Counter chunks = new Counter("chunks");
            Counter finished = new Counter("finished");
            Counter held = new Counter("held by the test");
            held.add(1);
            startLevel(jobs, level::run, chunks, finished, finished, held);
            eventually(() -> "a cycle through 'finisher'; reports " + names(cycles(reports)) + "; fibers "
                    + TestSupport.fiberStates(jobs), () -> !cycles(reports).isEmpty());
            String text = names(cycles(reports)).toString() + jobs.findWaitCycles().stream()
                    .map(c -> names(List.of(c.entries()))).toList();
            assertTrue(text.contains("finisher -> chunks (until at most 1 remain)")
                    && text.contains("chunk 0 -> finished") && text.contains("chunk 1 -> finished"), text);
            assertTrue(!text.contains("chunk 2"), "chunk 2 waits on the test, in no cycle: " + text);
            level.cancel();
            held.decrement();
            assertTrue(chunks.await(TestSupport.LONG) && finished.await(TestSupport.LONG), "the level ended");
        } finally {
            jobs.shutdownNow();
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated after shutdownNow");
        }
    }

    /**
     * The same level where only one chunk waits for the finisher: one never-ending job is not more than
     * the target, so once the test lets chunk 1 and 2 end the finisher ends, then chunk 0. Not a cycle.
     */
    @Test
    void aWaitForATargetThatEnoughOtherJobsWillReachIsNoCycle() throws Exception {
        JobSystem jobs = JobSystem.builder().name("target-chain").workers(2).build();
        try {
            Counter chunks = new Counter("chunks");
            Counter finished = new Counter("finished");
            Counter held = new Counter("held by the test");
            held.add(1);
            startLevel(jobs, jobs::run, chunks, finished, held, held);
            eventually(() -> "each job parked in its second wait; fibers " + TestSupport.fiberStates(jobs),
                    () -> waitingOn(jobs, chunks) == 1 && waitingOn(jobs, finished) == 1
                            && waitingOn(jobs, held) == 2);
            assertEquals(List.of(), jobs.findWaitCycles());
            held.decrement();
            assertTrue(chunks.await(TestSupport.LONG) && finished.await(TestSupport.LONG), "the level ended");
        } finally {
            jobs.shutdownNow();
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated after shutdownNow");
        }
    }

    /** {@code JobSystem.run} or {@code JobGroup.run}, with a name and a counter. */
    private interface Submit {
        void run(Priority priority, String name, Job job, Counter counter);
    }

    /**
     * A level's four jobs: a finisher (counted by {@code finished}) that waits until at most one chunk
     * remains, and three chunks (counted by {@code chunks}): chunk 0 waits on {@code finished}, chunk 1 on
     * {@code chunk1WaitsOn}, chunk 2 on {@code held}. All four park on a gate first, each on its own fiber,
     * and the gate opens once they have: a chunk could otherwise run the queued finisher inline in its
     * wait (still a deadlock, reported in another shape).
     */
    private static void startLevel(JobSystem jobs, Submit submit, Counter chunks, Counter finished,
                                   Counter chunk1WaitsOn, Counter held) throws Exception {
        Counter gate = new Counter("all submitted");
        gate.add(1);
        submit.run(Priority.NORMAL, "finisher", () -> { gate.await(); chunks.await(1); }, finished);
        submit.run(Priority.NORMAL, "chunk 0", () -> { gate.await(); finished.await(); }, chunks);
        submit.run(Priority.NORMAL, "chunk 1", () -> { gate.await(); chunk1WaitsOn.await(); }, chunks);
        submit.run(Priority.NORMAL, "chunk 2", () -> { gate.await(); held.await(); }, chunks);
        eventually("four jobs parked on the gate", () -> waitingOn(jobs, gate) == 4);
        gate.decrement();
    }

    /** Fibers in a wait on {@code c} right now. */
    private static long waitingOn(JobSystem jobs, Counter c) {
        return jobs.schedulerForTests().fibers.all().stream().filter(f -> {
            WaitNode n = f.waitNode;
            return n != null && n.counter == c && n.isWaiting();
        }).count();
    }

    private static List<String> names(List<List<WaitCycle.Entry>> cycles) {
        return cycles.stream().map(c -> c.stream().map(e -> e.job() + " -> " + e.waitsOn()).toList().toString())
                .toList();
    }

    private static List<List<WaitCycle.Entry>> cycles(List<WatchdogReport> reports) {
        return reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.WAIT_CYCLE).map(WatchdogReport::cycle)
                .toList();
    }
}
