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
 * cycle for the system's life.
 */
@Timeout(120)
class WatchdogCycleReportTest {

    @Test
    void aCycleFormedAgainAfterItsLevelWasCancelledIsReportedAgain() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        JobSystem jobs = JobSystem.builder().name("cycle-again").workers(2)
                .watchdog(Duration.ofMillis(50), reports::add).build();
        try {
            // Each level forms one of two shapes (two fibers, or b running a inline and waiting on itself):
            // with three levels at least one shape repeats, which a name-keyed watchdog never reported.
            for (int level = 1; level <= 3; level++) {
                JobGroup g = jobs.newGroup("level " + level);
                Counter aDone = new Counter("a done");
                Counter bDone = new Counter("b done");
                Counter gate = new Counter("both submitted");
                gate.add(1);
                g.run(Priority.NORMAL, "job a", () -> { gate.await(); bDone.await(); }, aDone);
                g.run(Priority.NORMAL, "job b", () -> { gate.await(); aDone.await(); }, bDone);
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

    private static List<String> names(List<List<WaitCycle.Entry>> cycles) {
        return cycles.stream().map(c -> c.stream().map(e -> e.job() + " -> " + e.waitsOn()).toList().toString())
                .toList();
    }

    private static List<List<WaitCycle.Entry>> cycles(List<WatchdogReport> reports) {
        return reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.WAIT_CYCLE).map(WatchdogReport::cycle)
                .toList();
    }
}
