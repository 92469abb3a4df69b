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
 * Wait cycles that go through jobs waiting for their prerequisites ({@code jobs.after(c).run(..., d)}).
 * Such a job is in no fiber: it sits in {@code PendingJobs} with a continuation node on each prerequisite
 * counter. {@code findWaitCycles()} and the watchdog looked only at parked fibers, so two such jobs each
 * counted by the counter the other waits for hung for ever with nothing reported (a probe: 3 of 3), and
 * so did a fiber awaiting a counter that counts a pending job which waits for the fiber's own counter.
 * A chain that will resolve must still not be reported.
 */
@Timeout(120)
class PrerequisiteWaitCycleTest {

    /** The probe's case: skin (counted by physics) waits for anim; ik (counted by anim) waits for physics. */
    @Test
    void twoJobsWaitingForEachOthersCountersThroughAfterAreACycle() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        JobSystem jobs = JobSystem.builder().name("after-cycle").workers(2)
                .watchdog(Duration.ofMillis(100), reports::add).build();
        try {
            Counter physics = new Counter("physics");
            Counter anim = new Counter("anim");
            jobs.run(Priority.FRAME, "p0", () -> Thread.sleep(50), physics);
            jobs.run(Priority.FRAME, "a0", () -> Thread.sleep(50), anim);
            jobs.after(anim).run(Priority.FRAME, "skin", () -> { }, physics);
            jobs.after(physics).run(Priority.FRAME, "ik", () -> { }, anim);

            eventually(() -> "a cycle through skin and ik; findWaitCycles " + jobs.findWaitCycles()
                    + "; physics " + physics.value() + ", anim " + anim.value() + "; reports " + reports,
                    () -> !jobs.findWaitCycles().isEmpty());
            List<WaitCycle> cycles = jobs.findWaitCycles();
            assertEquals(1, cycles.size(), cycles.toString());
            List<String> edges = cycles.get(0).entries().stream().map(e -> e.job() + "->" + e.waitsOn()).sorted()
                    .toList();
            assertEquals(List.of("ik->physics", "skin->anim"), edges, cycles.toString());
            assertTrue(cycles.get(0).entries().stream().allMatch(e -> e.stack().isEmpty()),
                    "a job waiting for its prerequisites has no fiber, so no stack: " + cycles);

            eventually(() -> "a WAIT_CYCLE report; reports so far " + reports,
                    () -> reports.stream().anyMatch(r -> r.kind() == WatchdogReport.Kind.WAIT_CYCLE));
            WatchdogReport r = reports.stream().filter(x -> x.kind() == WatchdogReport.Kind.WAIT_CYCLE)
                    .findFirst().orElseThrow();
            String text = r.toString();
            assertTrue(text.contains("'skin' waits on anim") && text.contains("'ik' waits on physics")
                    && r.detail().contains("prerequisites"), text);
            assertTrue(r.millis() >= 100, "reported once its oldest wait passed the threshold: " + r.millis());
            assertEquals(1, reports.stream().filter(x -> x.kind() == WatchdogReport.Kind.WAIT_CYCLE).count(),
                    "one report per cycle: " + reports);
            assertEquals(1, physics.value(), "the cycle holds physics");
            assertEquals(1, anim.value(), "the cycle holds anim");
        } finally {
            jobs.shutdownNow();                                        // cancels both pending jobs
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated after shutdownNow");
        }
    }

    /**
     * Mixed: fiber job 'solve' (counted by physics) parks in anim.await(); 'pose' (counted by anim) waits
     * for physics through after(). And a pending handle: 'bake' waits for 'level', and 'stream' (counted
     * by 'level') waits for bake's handle.
     */
    @Test
    void aParkedFiberAndAPendingJobOrAPendingHandleAreACycle() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        JobSystem jobs = JobSystem.builder().name("mixed-cycle").workers(2)
                .watchdog(Duration.ofMillis(100), reports::add).build();
        try {
            Counter physics = new Counter("physics");
            Counter anim = new Counter("anim");
            jobs.run(Priority.FRAME, "p0", () -> Thread.sleep(50), physics);   // pose is not released at once
            jobs.after(physics).run(Priority.FRAME, "pose", () -> { }, anim);
            jobs.run(Priority.FRAME, "solve", anim::await, physics);          // anim is 1 (pose): it parks

            Counter level = new Counter("level");
            level.add(1);                                                     // held by hand until the handle exists
            JobHandle<Integer> bake = jobs.after(level).submit(Priority.NORMAL, "bake", () -> 1);
            jobs.after(bake).run(Priority.NORMAL, "stream", () -> { }, level);
            level.decrement();                                                // now only 'stream' holds it

            eventually(() -> "two cycles; findWaitCycles " + jobs.findWaitCycles() + "; fibers "
                    + TestSupport.fiberStates(jobs), () -> jobs.findWaitCycles().size() == 2);
            List<String> cycles = jobs.findWaitCycles().stream().map(c -> c.entries().stream()
                    .map(e -> e.job() + "->" + e.waitsOn()).sorted().toList().toString()).sorted().toList();
            assertEquals(List.of("[bake->level, stream->join of 'bake']", "[pose->physics, solve->anim]"), cycles);
            WaitCycle mixed = jobs.findWaitCycles().stream()
                    .filter(c -> c.entries().stream().anyMatch(e -> e.job().equals("solve"))).findFirst().orElseThrow();
            WaitCycle.Entry solve = mixed.entries().stream().filter(e -> e.job().equals("solve")).findFirst()
                    .orElseThrow();
            assertTrue(solve.stack().stream().anyMatch(f -> f.getMethodName().equals("await")),
                    "the parked job's entry has its fiber's stack: " + solve.stack());

            eventually(() -> "two WAIT_CYCLE reports; reports so far " + reports,
                    () -> reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.WAIT_CYCLE).count() == 2);
            String text = reports.toString();
            assertTrue(text.contains("'pose' waits on physics") && text.contains("'solve' waits on anim")
                    && text.contains("'stream' waits on join of 'bake'") && text.contains("'bake' waits on level"),
                    text);
        } finally {
            jobs.shutdownNow();
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated after shutdownNow");
        }
    }

    /**
     * Chains that look like cycles but resolve are not reported. 'late' (counted by c2) waits for c1, which
     * counts 'hold' (parked on a gate the test opens) and 'partial'; 'partial' (counted by c1) waits for c2
     * to be at most 1, and c2 also counts 'other' (parked on the gate): once the gate opens 'other' ends,
     * 'partial' wakes, 'hold' ends, 'late' is released. A wait with a target above zero does not need every
     * job its counter counts: here c2 counts one job that can never end ('late'), not more than the target,
     * so it is no edge of the graph; an after() job whose prerequisite counts a parked job that is not
     * waiting on it is no cycle either.
     */
    @Test
    void aChainThatWillResolveIsNotReported() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        JobSystem jobs = JobSystem.builder().name("no-cycle").workers(2)
                .watchdog(Duration.ofMillis(50), reports::add).build();
        try {
            Counter gate = new Counter("gate");
            gate.add(1);
            Counter c1 = new Counter("c1");
            Counter c2 = new Counter("c2");
            jobs.run(Priority.NORMAL, "hold", gate::await, c1);
            jobs.run(Priority.NORMAL, "other", gate::await, c2);
            // Both parked before 'partial' is submitted: its wait on c2 would otherwise run 'other' inline
            // if still queued on its worker (help before a wait), and park in 'other''s wait on the gate.
            eventually(() -> "hold and other parked; fibers " + TestSupport.fiberStates(jobs),
                    () -> jobs.stats().fibersParked() == 2);
            jobs.after(c1).run(Priority.NORMAL, "late", () -> { }, c2);
            jobs.run(Priority.NORMAL, "partial", () -> c2.await(1), c1);
            Counter watcher = new Counter("watcher");
            jobs.run(Priority.NORMAL, "watch", c2::await, watcher);          // waits behind 'late': a chain

            eventually(() -> "four jobs parked; fibers " + TestSupport.fiberStates(jobs) + "; c1 " + c1.value()
                    + ", c2 " + c2.value() + "; stats " + jobs.stats(),
                    () -> jobs.stats().fibersParked() == 4);
            Thread.sleep(300);                                                // the watchdog's threshold, 6 times
            assertEquals(List.of(), jobs.findWaitCycles());
            assertTrue(reports.stream().noneMatch(r -> r.kind() == WatchdogReport.Kind.WAIT_CYCLE),
                    "no cycle reported: " + reports);
            assertEquals(2, c1.value());
            assertEquals(2, c2.value());

            gate.decrement();
            assertTrue(c1.await(TestSupport.LONG), "c1 drained: " + c1.value());
            assertTrue(c2.await(TestSupport.LONG), "c2 drained: " + c2.value());
            assertTrue(watcher.await(TestSupport.LONG), "watcher drained: " + watcher.value());
            assertTrue(reports.stream().noneMatch(r -> r.kind() == WatchdogReport.Kind.WAIT_CYCLE),
                    "no cycle reported: " + reports);
        } finally {
            jobs.shutdownNow();
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated after shutdownNow");
        }
    }
}
