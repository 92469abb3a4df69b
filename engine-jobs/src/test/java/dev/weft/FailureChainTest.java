package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failure travelling up a deep chain of joins: each level's message names the job it waited on and the
 * root cause, and each level costs the same. Walking the whole cause chain at every level made a chain of
 * 200,000 nested joins take minutes to unwind after its deepest job failed (found by a probe that joins
 * a linked chain of jobs, each submitting the next).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailureChainTest {

    /** A root cause that counts how often a chain walk asks it for its own cause. */
    private static final class CountingFailure extends IllegalStateException {
        int causeReads;

        CountingFailure() {
            super("deepest");
        }

        @Override
        public synchronized Throwable getCause() {
            causeReads++;
            return super.getCause();
        }
    }

    @Test
    void eachLevelFindsTheRootCauseWithoutWalkingTheChain() {
        CountingFailure root = new CountingFailure();
        JobFailedException e = new JobFailedException("level 0", root);
        for (int level = 1; level < 10_000; level++) {
            e = new JobFailedException("level " + level, e);
        }
        assertTrue(root.causeReads <= 2, "the root cause was read " + root.causeReads
                + " times for a 10,000-deep chain: every level walked the chain again");
        assertEquals("job 'level 9999' failed: job 'level 9998', which it waited on, failed; root cause: "
                + root, e.getMessage());
        assertSame(JobFailedException.class, e.getCause().getCause().getCause().getClass());
    }

    @Test
    void aUserExceptionWrappingAJobFailureStillLeadsToTheFirstCause() {
        IllegalArgumentException first = new IllegalArgumentException("first");
        JobFailedException inner = new JobFailedException("inner", first);
        RuntimeException wrapped = new RuntimeException("the user's wrapper", inner);
        JobFailedException outer = new JobFailedException("outer", wrapped);
        JobFailedException top = new JobFailedException("top", outer);
        assertEquals("job 'top' failed: job 'outer', which it waited on, failed; root cause: " + first,
                top.getMessage());
    }

    static int chain(JobSystem jobs, int n) {
        if (n == 0) {
            throw new IllegalStateException("the deepest job failed");
        }
        return jobs.submit(() -> chain(jobs, n - 1)).join() + 1;
    }

    @Test
    void aDeepChainOfJoinsReportsTheDeepestFailureAtItsTop() {
        try (JobSystem jobs = TestSupport.system(1)) {                 // one worker: every join runs inline
            JobHandle<Integer> top = jobs.submit(Priority.NORMAL, "top", () -> chain(jobs, 3_000));
            JobFailedException thrown = assertThrows(JobFailedException.class, top::join);
            assertTrue(thrown.getMessage().startsWith("job 'top' failed: job '"), thrown.getMessage());
            assertTrue(thrown.getMessage().endsWith(
                    "which it waited on, failed; root cause: java.lang.IllegalStateException: the deepest job failed"),
                    thrown.getMessage());
            assertEquals(6765, TestSupport.join(jobs.submit(() -> JoinHelpTest.fib(jobs, 20))),
                    "the system still works after the chain unwound");
        }
    }

    static int deepThenWait(JobSystem jobs, int n, Counter gate) {
        if (n == 0) {
            gate.await();                                // parks this fiber with the whole chain on its stack
            return 0;
        }
        return jobs.submit(() -> deepThenWait(jobs, n - 1, gate)).join() + 1;
    }

    @Test
    void aFiberTooDeepToParkSaysWhichJobAndWhy() throws Exception {
        // The JDK refuses to unmount a stack bigger than half a G1 region; 20,000 nested joins are several MB
        // of stack, over that for regions up to 4 MB (heaps up to 8 GB). With bigger regions the park may
        // succeed, and there is nothing to see.
        long regionBytes = Long.parseLong(java.lang.management.ManagementFactory.getPlatformMXBean(
                com.sun.management.HotSpotDiagnosticMXBean.class).getVMOption("G1HeapRegionSize").getValue());
        org.junit.jupiter.api.Assumptions.assumeTrue(regionBytes > 0 && regionBytes <= (4 << 20),
                "G1 regions of " + regionBytes + " bytes: a 20,000-deep stack may park");
        try (JobSystem jobs = TestSupport.system(1)) {
            Counter gate = new Counter("gate");
            gate.add(1);
            JobHandle<Integer> top = jobs.submit(Priority.NORMAL, "top", () -> deepThenWait(jobs, 20_000, gate));
            try {
                JobFailedException thrown = assertThrows(JobFailedException.class,
                        () -> top.join(java.time.Duration.ofSeconds(20)));
                assertTrue(thrown.getMessage().contains("could not park its fiber to wait on counter 'gate': the "
                        + "fiber's stack is too deep for the JDK to unmount"), thrown.getMessage());
                assertTrue(thrown.getMessage().contains("Cut the chain"), thrown.getMessage());
            } finally {
                gate.decrement();
            }
            assertEquals(6765, TestSupport.join(jobs.submit(() -> JoinHelpTest.fib(jobs, 20))));
        }
    }
}
