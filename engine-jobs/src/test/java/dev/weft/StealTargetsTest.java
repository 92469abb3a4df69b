package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.vm.VM;

/**
 * The table thieves read instead of the workers: it names every worker's own deques, and its used slots
 * sit two cache lines from both ends of their arrays, as HotSpot really lays them out (JOL).
 */
class StealTargetsTest {
    @Test
    void everyWorkersDequesAreWhereTheTableSaysTheyAre() {
        try (JobSystem jobs = JobSystem.builder().workers(3).name("targets").build()) {
            Scheduler s = jobs.schedulerForTests();
            StealTargets targets = s.picker.targets;
            for (Worker w : s.workers) {
                for (int p = 0; p < Priority.COUNT; p++) {
                    assertSame(w.jobs[p], targets.jobs(w.index, p), "jobs of worker " + w.index + ", priority " + p);
                    assertSame(w.ready[p], targets.ready(w.index, p), "ready of worker " + w.index + ", priority " + p);
                }
            }
        }
    }

    @Test
    void theUsedSlotsAreTwoCacheLinesFromBothEndsOfTheirArrays() {
        try (JobSystem jobs = JobSystem.builder().workers(2).name("targets").build()) {
            Scheduler s = jobs.schedulerForTests();
            long referenceBytes = (VM.current().sizeOf(new Object[64]) - VM.current().sizeOf(new Object[0])) / 64;
            for (Object[] array : s.picker.targets.arraysForTests()) {
                int used = s.workers.length * Priority.COUNT;
                assertEquals(StealTargets.PAD + used + StealTargets.PAD, array.length);
                for (int i = 0; i < array.length; i++) {
                    boolean isUsed = i >= StealTargets.PAD && i < StealTargets.PAD + used;
                    if (!isUsed) {
                        assertNull(array[i], "padding slot " + i + " holds a deque");
                    }
                }
                long firstUsedAt = VM.current().arrayHeaderSize() + StealTargets.PAD * referenceBytes;
                long afterLastUsed = VM.current().sizeOf(array) - (firstUsedAt + used * referenceBytes);
                assertTrue(firstUsedAt >= 128, "first used slot at byte " + firstUsedAt + " of the array");
                assertTrue(afterLastUsed >= 128, "only " + afterLastUsed + " bytes after the last used slot");
            }
        }
    }
}
