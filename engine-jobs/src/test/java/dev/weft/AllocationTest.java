package dev.weft;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How many heap bytes Weft allocates per job in steady state, measured in bytes rather than time, so the
 * checks hold on a slow or busy machine.
 *
 * <p><b>Attribution.</b> A job runs on a fiber, a virtual thread mounted on one of the system's worker
 * threads, and HotSpot charges what a mounted virtual thread allocates to its carrier. So a measurement
 * is the sum of {@link com.sun.management.ThreadMXBean#getThreadAllocatedBytes(long)} over every worker
 * thread plus the test's own thread (it submits from outside, joins and waits), taken before and after a
 * phase. The per-thread overload is used in the loop because it allocates nothing itself (the
 * {@code long[]} overload returns a new array), which lets a job measure a phase from inside.
 *
 * <p><b>Warm-up and rounds.</b> Allocation depends on the JIT: an allocation that escape analysis removes
 * is made until C2 has compiled the path (a nested run allocated 24 B/job for the first 0.2-2 million jobs,
 * and always with {@code -XX:-DoEscapeAnalysis}: the {@code Object[2]} that
 * {@code FiberSupport.detachThreadLocals} made before it checked for maps, now made only when there are
 * some). Each check first runs {@value #WARMUP_ROUNDS} rounds unmeasured,
 * then measures rounds of {@value #JOBS_PER_ROUND} jobs ({@value #STOLEN_JOBS_PER_ROUND} for the stolen
 * path) and passes at the first round within its bound;
 * it fails only after {@value #MAX_MEASURED_ROUNDS} rounds, listing every round's bytes/job. A measured
 * round includes a few bookkeeping objects per round (the test's own waits), well under 0.01 B/job.
 *
 * <p><b>Bounds</b> (the project's allocation issue): a job submitted from inside a job (run inline, or
 * stolen and run by another worker), a join inside a job, and a join of a finished handle from outside
 * allocate nothing: below 1 B/job on average, which
 * tolerates a rare queue chunk, wait node or fiber. A job submitted from outside allocates at most 16
 * B/job over the submitting thread and the workers.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)   // a hung wait cannot hang the build
class AllocationTest {
    private static final int WARMUP_ROUNDS = 3;
    private static final int MAX_MEASURED_ROUNDS = 30;
    private static final int JOBS_PER_ROUND = 200_000;
    /** Each stolen child may cost the thief a wake from its idle park: about 2.5 us a job on 2 cores. */
    private static final int STOLEN_JOBS_PER_ROUND = 50_000;
    /** Handles submitted before they are joined: the fork/join pattern, joined soon after. */
    private static final int HANDLES_PER_BATCH = 16;
    /** Jobs the test thread submits before it waits for them, so the injection queue stays short. */
    private static final int OUTSIDE_JOBS_PER_BATCH = 1_000;

    private static final Job NOTHING = () -> { };                // non-capturing: one instance, no per-job closure
    private static final Integer SEVEN = Integer.valueOf(7);     // cached: returning it boxes nothing
    private static final Callable<Integer> RETURN_SEVEN = () -> SEVEN;

    private static final DoublePredicate ZERO = bytesPerJob -> bytesPerJob < 1.0;
    private static final DoublePredicate AT_MOST_16 = bytesPerJob -> bytesPerJob <= 16.0;

    /** Runs one round of jobs ({@link #JOBS_PER_ROUND} unless told); returns the heap bytes its measured phase allocated. */
    @FunctionalInterface
    private interface Round {
        long allocatedBytes();
    }

    /**
     * One worker: the child is still at the bottom of the deque when the parent awaits, and runs inline.
     * On two workers a thief sometimes takes it first, and then the await parks, which allocates by design
     * (its WaitNode: 58-65 B a park, measured with busy-spinning idle workers). How often depends on the machine, so a
     * bound on two workers measured the machine: here under 0.4 B/job, but 1.32-1.41 B/job in all 30
     * rounds on a faster CI machine (about 5,000 parks of 200,000 jobs a round). The stolen path is measured
     * without parks by {@link #aChildStolenByAnotherWorkerAllocatesNothing}.
     */
    @Test
    void aJobSubmittedFromInsideAJobAllocatesNothing() {
        assertJobsFromAJobAllocateNothing("jobs.run from inside a job");
    }

    /**
     * A JFR recording with the JDK's default settings ({@code -XX:StartFlightRecording}, as many games
     * run in production) leaves Weft's per-job events off: no event object per job. Before they were
     * opt-in, every job allocated its {@code weft.Job} event (13-53 B/job measured) and EmptyJobs from a
     * job cost 1.8x.
     */
    @Test
    void aJobFromAJobAllocatesNothingWhileADefaultJfrRecordingRuns() throws Exception {
        try (jdk.jfr.Recording r = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("default"))) {
            r.setToDisk(false);
            r.start();
            TestSupport.eventually("the JFR listener saw the recording", () -> JfrEvents.active);
            assertJobsFromAJobAllocateNothing("jobs.run from inside a job, default JFR recording running");
        }
    }

    private static void assertJobsFromAJobAllocateNothing(String check) {
        try (JobSystem jobs = JobSystem.builder().workers(1).name("alloc-nested").build()) {
            Counter children = new Counter("children");     // reused: a new counter per job would be the test's
            Round round = roundInAJob(jobs, JOBS_PER_ROUND, () -> {
                jobs.run(NOTHING, children);
                children.await();
            });
            assertSteadyState(check, "< 1 B/job", ZERO, JOBS_PER_ROUND, round);
        }
    }

    /**
     * The stolen path: a job's child taken by the other worker, run on that worker's fiber, its node sent
     * home. The parent never waits (it spins on {@link Counter#isDone()}, holding its worker), so every
     * child is stolen and nothing parks; the test checks both. Fewer jobs a round than the others: each
     * steal may first wake the thief from its idle park.
     */
    @Test
    void aChildStolenByAnotherWorkerAllocatesNothing() {
        try (JobSystem jobs = system()) {
            Counter children = new Counter("children");
            Round round = roundInAJob(jobs, STOLEN_JOBS_PER_ROUND, () -> {
                jobs.run(NOTHING, children);
                while (!children.isDone()) {
                    Thread.onSpinWait();                   // no await: it would run the child inline or park
                }
            });
            assertSteadyState("a child stolen by the other worker", "< 1 B/job", ZERO, STOLEN_JOBS_PER_ROUND,
                    () -> {
                        JobSystemStats before = jobs.stats();
                        long bytes = round.allocatedBytes();
                        JobSystemStats after = jobs.stats();
                        // stats are exact here: both workers are past the round's jobs (the counter's
                        // decrement released them) and only the parent's own start/end remain.
                        long steals = after.steals() - before.steals();
                        long waits = after.waits() - before.waits();
                        if (steals < STOLEN_JOBS_PER_ROUND || waits != 0) {
                            throw new AssertionError("the test's premise broke: " + steals + " steals (want "
                                    + STOLEN_JOBS_PER_ROUND + " or more) and " + waits + " parks (want 0)");
                        }
                        return bytes;
                    });
        }
    }

    /**
     * A round measured from inside a job: a parent job runs {@code step} {@code times} times and measures
     * its loop (over the workers and the test thread); the round submits the parent from the test thread
     * and waits for it.
     */
    private static Round roundInAJob(JobSystem jobs, int times, Runnable step) {
        AllocationMeter meter = new AllocationMeter(jobs);
        long[] roundBytes = new long[1];
        Job parent = () -> {
            long before = meter.allocatedBytes();
            for (int i = 0; i < times; i++) {
                step.run();
            }
            roundBytes[0] = meter.allocatedBytes() - before;
        };
        Counter parentDone = new Counter("parent");
        return () -> {
            jobs.run(parent, parentDone);
            // The counter publishes roundBytes. Four times the usual bound: a stolen round on a CI machine
            // with a busy core took most of it (each steal may wait for the thief's time slice).
            if (!parentDone.await(TestSupport.LONG.multipliedBy(4))) {
                throw new AssertionError("a round did not end within " + TestSupport.LONG.multipliedBy(4) + "\n"
                        + TestSupport.threadDump());
            }
            return roundBytes[0];
        };
    }

    /**
     * One worker: every join finds its child unstarted at the bottom of the deque and runs it inline,
     * the path whose allocation this measures. On two workers a thief takes some children, and a join
     * that reaches one still running parks, which allocates by design (a WaitNode and the frozen stack:
     * SYNCHRONIZATION.md's handle cost table). That made this bound depend on timing: a clean-clone run
     * measured 1.0-5.0 B/job in all 30 rounds, while others were within it at the first.
     */
    @Test
    void joiningHandlesInsideAJobAllocatesNothing() {
        try (JobSystem jobs = JobSystem.builder().workers(1).name("alloc-join").build()) {
            AllocationMeter meter = new AllocationMeter(jobs);
            @SuppressWarnings("unchecked")
            JobHandle<Integer>[] handles = new JobHandle[HANDLES_PER_BATCH];
            long[] submitAndJoinBytes = new long[2];
            Job parent = () -> {
                long submitBytes = 0;
                long joinBytes = 0;
                for (int batch = 0; batch < JOBS_PER_ROUND / HANDLES_PER_BATCH; batch++) {
                    long start = meter.allocatedBytes();
                    for (int i = 0; i < HANDLES_PER_BATCH; i++) {
                        handles[i] = jobs.submit(RETURN_SEVEN);
                    }
                    long submitted = meter.allocatedBytes();
                    for (int i = HANDLES_PER_BATCH - 1; i >= 0; i--) {   // newest first: it is at the bottom
                        if (handles[i].join() != SEVEN) {
                            throw new AssertionError("join returned another value than the job's");
                        }
                    }
                    long joined = meter.allocatedBytes();
                    submitBytes += submitted - start;
                    joinBytes += joined - submitted;
                }
                submitAndJoinBytes[0] = submitBytes;
                submitAndJoinBytes[1] = joinBytes;
            };
            Counter parentDone = new Counter("parent");
            List<String> submitBytesPerJob = new ArrayList<>();
            assertSteadyState("JobHandle.join inside a job (join phase only)", "< 1 B/job", ZERO, () -> {
                jobs.run(parent, parentDone);
                TestSupport.await(parentDone);
                submitBytesPerJob.add(perJob(submitAndJoinBytes[0]));
                return submitAndJoinBytes[1];
            });
            // Not bounded (a handle is a new object per job); printed so the report can quote it.
            System.out.println("AllocationTest: jobs.submit inside a job, per round (warm-up first): "
                    + submitBytesPerJob + " B/job");
        }
    }

    @Test
    void aJobSubmittedFromOutsideAllocatesAtMost16Bytes() {
        try (JobSystem jobs = system()) {
            AllocationMeter meter = new AllocationMeter(jobs);
            Counter done = new Counter("outside");
            assertSteadyState("jobs.run from outside the workers", "<= 16 B/job", AT_MOST_16, () -> {
                long before = meter.allocatedBytes();
                for (int batch = 0; batch < JOBS_PER_ROUND / OUTSIDE_JOBS_PER_BATCH; batch++) {
                    for (int i = 0; i < OUTSIDE_JOBS_PER_BATCH; i++) {
                        jobs.run(NOTHING, done);
                    }
                    done.await();
                }
                return meter.allocatedBytes() - before;
            });
        }
    }

    /** The thread that waits and helps in {@link #aThreadThatWaitsAndHelpsAllocatesAtMost16BytesPerJob}. */
    private static volatile Thread helpingThread;
    private static long jobsRunByHelpingThread;                 // written by that thread only
    /** A FRAME job of a few microseconds that counts the runs on the waiting thread: non-capturing. */
    private static final Job SHORT_FRAME_PIECE = () -> {
        if (Thread.currentThread() == helpingThread) {
            jobsRunByHelpingThread++;
        }
        for (int i = 0; i < 50; i++) {
            Thread.onSpinWait();
        }
    };

    /**
     * A frame as a game's main thread runs it: it submits FRAME jobs, then waits without a timeout and runs
     * some of them itself (waitersHelp, on by default). Each one it ran cost about 200 B (a ThreadLocal map
     * and a ThreadSettings made per helped job, and its node dropped, so the next submission made a new one):
     * about 100 B per job of the frame (a probe, 2 workers).
     */
    @Test
    void aThreadThatWaitsAndHelpsAllocatesAtMost16BytesPerJob() {
        try (JobSystem jobs = system()) {
            AllocationMeter meter = new AllocationMeter(jobs);
            Counter frame = new Counter("frame");
            helpingThread = Thread.currentThread();
            jobsRunByHelpingThread = 0;
            assertSteadyState("FRAME jobs from outside, then a wait that helps", "<= 16 B/job", AT_MOST_16, () -> {
                long before = meter.allocatedBytes();
                for (int batch = 0; batch < JOBS_PER_ROUND / OUTSIDE_JOBS_PER_BATCH; batch++) {
                    for (int i = 0; i < OUTSIDE_JOBS_PER_BATCH; i++) {
                        jobs.run(Priority.FRAME, null, SHORT_FRAME_PIECE, frame);
                    }
                    frame.await();                         // untimed: it runs queued FRAME jobs meanwhile
                }
                return meter.allocatedBytes() - before;
            });
            System.out.println("AllocationTest: the waiting thread ran " + jobsRunByHelpingThread + " jobs itself");
            assertTrue(jobsRunByHelpingThread > 0, "the waiting thread never helped: the check measured nothing");
        } finally {
            helpingThread = null;
        }
    }

    @Test
    void joiningAFinishedHandleFromOutsideAllocatesNothing() {
        try (JobSystem jobs = system()) {
            AllocationMeter meter = new AllocationMeter(jobs);
            @SuppressWarnings("unchecked")
            JobHandle<Integer>[] handles = new JobHandle[OUTSIDE_JOBS_PER_BATCH];
            Counter done = new Counter("handles");
            assertSteadyState("JobHandle.join of a finished handle from outside", "< 1 B/job", ZERO, () -> {
                long joinBytes = 0;
                for (int batch = 0; batch < JOBS_PER_ROUND / OUTSIDE_JOBS_PER_BATCH; batch++) {
                    for (int i = 0; i < handles.length; i++) {
                        handles[i] = jobs.submit(Priority.NORMAL, null, RETURN_SEVEN, done);
                    }
                    TestSupport.await(done);           // every handle has ended before its counter does
                    long before = meter.allocatedBytes();
                    for (JobHandle<Integer> h : handles) {
                        if (h.join() != SEVEN) {
                            throw new AssertionError("join returned another value than the job's");
                        }
                    }
                    joinBytes += meter.allocatedBytes() - before;
                }
                return joinBytes;
            });
        }
    }

    private static JobSystem system() {
        return JobSystem.builder().workers(2).name("alloc").build();
    }

    /**
     * Warms up, then measures rounds until one is within the bound; fails after {@link
     * #MAX_MEASURED_ROUNDS} with every round's figure.
     */
    private static void assertSteadyState(String check, String boundText, DoublePredicate withinBound,
                                          Round round) {
        assertSteadyState(check, boundText, withinBound, JOBS_PER_ROUND, round);
    }

    private static void assertSteadyState(String check, String boundText, DoublePredicate withinBound,
                                          int jobsPerRound, Round round) {
        List<String> warmupBytesPerJob = new ArrayList<>();
        for (int i = 0; i < WARMUP_ROUNDS; i++) {
            warmupBytesPerJob.add(perJob(round.allocatedBytes(), jobsPerRound));   // C2 compiles the path meanwhile: not judged
        }
        List<String> bytesPerJobByRound = new ArrayList<>();
        for (int r = 0; r < MAX_MEASURED_ROUNDS; r++) {
            long bytes = round.allocatedBytes();
            bytesPerJobByRound.add(perJob(bytes, jobsPerRound));
            if (withinBound.test((double) bytes / jobsPerRound)) {
                System.out.println("AllocationTest: " + check + ": " + bytesPerJobByRound + " B/job (bound "
                        + boundText + "): within it at measured round " + (r + 1) + "; warm-up "
                        + warmupBytesPerJob);
                return;
            }
        }
        fail(check + ": not within " + boundText + " in any of " + MAX_MEASURED_ROUNDS + " rounds of "
                + jobsPerRound + " jobs; bytes/job by round: " + bytesPerJobByRound + " (warm-up "
                + warmupBytesPerJob + ")");
    }

    private static String perJob(long bytes) {
        return perJob(bytes, JOBS_PER_ROUND);
    }

    private static String perJob(long bytes, int jobsPerRound) {
        return String.format(Locale.ROOT, "%.3f", (double) bytes / jobsPerRound);
    }

    /** Sums the allocated bytes of the system's worker threads and the test thread. */
    private static final class AllocationMeter {
        private final com.sun.management.ThreadMXBean threads;
        private final long[] threadIds;

        AllocationMeter(JobSystem jobs) {
            Assumptions.assumeTrue(ManagementFactory.getThreadMXBean()
                    instanceof com.sun.management.ThreadMXBean, "no com.sun.management.ThreadMXBean");
            threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported(),
                    "this JVM does not measure per-thread allocation");
            threads.setThreadAllocatedMemoryEnabled(true);
            Worker[] workers = jobs.schedulerForTests().workers;
            threadIds = new long[workers.length + 1];
            for (int i = 0; i < workers.length; i++) {
                Thread t = workers[i].thread;
                assertTrue(t.getName().startsWith(jobs.name() + "-worker-"), "not a worker: " + t);
                threadIds[i] = t.threadId();
            }
            Thread self = Thread.currentThread();
            assertTrue(!self.isVirtual(), "the test thread must be a platform thread to be measured");
            threadIds[workers.length] = self.threadId();
            long[] bytes = threads.getThreadAllocatedBytes(threadIds);
            assertTrue(Arrays.stream(bytes).allMatch(b -> b >= 0),
                    "allocated bytes unknown for a thread of " + Arrays.toString(threadIds) + ": "
                            + Arrays.toString(bytes));
        }

        /** Allocation-free, so it may run inside a measured phase, also on a fiber. */
        long allocatedBytes() {
            long sum = 0;
            for (long id : threadIds) {
                long bytes = threads.getThreadAllocatedBytes(id);
                if (bytes < 0) {
                    throw new AssertionError("thread " + id + " stopped while measured");
                }
                sum += bytes;
            }
            return sum;
        }
    }
}
