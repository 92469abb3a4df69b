package dev.weft;

import static dev.weft.TestSupport.LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bounded soak: many job-system lifetimes, each a random job graph with every feature at once, ended
 * by a random kind of shutdown at a random point, then audited.
 *
 * <p>Each lifetime: top-level jobs submitted by the test thread (which is the main thread) in windowed
 * random order, each waiting on up to three earlier ones (counter or handle, timed or not), some spawning
 * children (single, handles, a {@code runAll} batch, a {@code parallelFor}, fire-and-forget orphans),
 * some calling onto the main thread (joined or not), some cancelling other handles, some polling for
 * cancellation, some failing (unchecked, checked, Error); three groups, one of which may be cancelled;
 * FRAME/NORMAL/BACKGROUND mixed; some lifetimes park idle workers at once (no spin) to stress wake-ups.
 * Endings: drain then close, shutdown midway, close from another thread while submitting, shutdownNow
 * midway / from another thread / from inside a job / after the drain.
 *
 * <p>Audited after termination, per lifetime:
 * <ul>
 *   <li>every submitted job ran exactly once or was cancelled: per-job run counts are 0 or 1; jobs
 *       started on workers = {@code stats().jobsRun()}, on the main thread = {@code mainThreadJobsRun()},
 *       submitted − started = {@code jobsCancelled()} (parallelFor pieces, whose number depends on the
 *       schedule, are bounded by the elements left uncovered); every name in shutdownNow's list is a job
 *       that never ran; every handle is done and its state matches what its body did;</li>
 *   <li>every waiter woke: no timed wait inside a job and no wait of the test thread timed out, and each
 *       waiter saw exactly its dependency's outcome (failure or not);</li>
 *   <li>every counter ended at zero; failures of jobs nobody waits for reached the uncaught handler;</li>
 *   <li>nothing is left: {@code fibersAlive() == 0}, no fiber parked, no "&lt;name&gt;-worker-N" thread alive.</li>
 * </ul>
 * Sizes: CI {@value #CI_LIFETIMES} lifetimes per worker count (1, 2, 4); -Dweft.stress=full
 * {@value #FULL_LIFETIMES}, with larger graphs.
 */
@Timeout(1800)
class SoakTest {
    static final int CI_LIFETIMES = 250;
    static final int FULL_LIFETIMES = 1000;
    private static final int LIFETIMES = TestSupport.FULL ? FULL_LIFETIMES : CI_LIFETIMES;
    private static final int MAX_TOP_JOBS = TestSupport.FULL ? 3000 : 500;
    // A job woken with a JobCancelledException that is not its own (it ran nested inside a cancelled
    // handle's wait, SoakFindingsTest#cancellingAHandleDoesNotFailAJobItRunsInline) fails the soak:
    // that defect is fixed, and the soak counted it as known until then.
    /** A lifetime still running after this long hangs (they take well under a second). */
    private static final long LIFETIME_LIMIT_SECONDS = 120;
    private static final java.util.concurrent.ScheduledExecutorService HANG_GUARD =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "soak-hang-guard");
                t.setDaemon(true);
                return t;
            });
    /** Timed waits inside jobs: longer than the test thread's, so a hang is caught while it still hangs. */
    private static final java.time.Duration JOB_WAIT = LONG.multipliedBy(2);

    // Outcome a job's body recorded (NONE: the body never ran, or has not finished).
    private static final int NONE = 0;
    private static final int OK = 1;
    private static final int FAILED = 2;
    private static final int HONOURED = 3;       // ended by throwing JobCancelledException after being asked
    private static final int UNEXPECTED = 4;

    private static final int FAIL_UNCHECKED = 1;
    private static final int FAIL_CHECKED = 2;
    private static final int FAIL_ERROR = 3;

    enum Ending {
        DRAIN_THEN_CLOSE, SHUTDOWN_MIDWAY, CLOSE_FROM_OTHER_THREAD, SHUTDOWN_NOW_MIDWAY,
        SHUTDOWN_NOW_FROM_OTHER_THREAD, SHUTDOWN_NOW_FROM_A_JOB, SHUTDOWN_NOW_AFTER_DRAIN
    }

    /** Totals over the whole run, printed at the end (the lead reports them). */
    private static final Map<Integer, Totals> TOTALS = new java.util.concurrent.ConcurrentSkipListMap<>();

    static final class Totals {
        long lifetimes, jobsRun, mainThreadJobsRun, cancelled, rejected, reportedByShutdownNow;
        long unchecked, checked, errors, handleCancels, groupCancels, honoured, waits, rangePieces, helped;
        final Map<Ending, Integer> endings = new java.util.EnumMap<>(Ending.class);

        void add(Totals o) {
            lifetimes += o.lifetimes;
            jobsRun += o.jobsRun;
            mainThreadJobsRun += o.mainThreadJobsRun;
            cancelled += o.cancelled;
            rejected += o.rejected;
            reportedByShutdownNow += o.reportedByShutdownNow;
            unchecked += o.unchecked;
            checked += o.checked;
            errors += o.errors;
            handleCancels += o.handleCancels;
            groupCancels += o.groupCancels;
            honoured += o.honoured;
            waits += o.waits;
            rangePieces += o.rangePieces;
            helped += o.helped;
            o.endings.forEach((k, v) -> endings.merge(k, v, Integer::sum));
        }

        @Override
        public String toString() {
            return String.format("%d lifetimes, %d jobs run on workers (%d parallelFor pieces) + %d on the main thread, "
                            + "%d cancelled (%d reported by shutdownNow), %d ended by honouring cancellation, %d refused "
                            + "at submission; failures injected: %d unchecked, %d checked, %d Error; %d handle.cancel(), "
                            + "%d JobGroup.cancel(); %d waits parked a fiber; %d jobs run by the waiting main thread; endings %s",
                    lifetimes, jobsRun, rangePieces, mainThreadJobsRun, cancelled, reportedByShutdownNow, honoured,
                    rejected, unchecked, checked, errors, handleCancels, groupCancels, waits, helped, endings);
        }
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void manyLifetimesOfRandomGraphsAccountForEveryJob(int workers) {
        Totals totals = new Totals();
        long t0 = System.nanoTime();
        // -Dweft.soak.only=W:L[:R] replays lifetime L of W workers (R times): the seed depends on both.
        String only = System.getProperty("weft.soak.only");
        int from = 0, to = LIFETIMES, repeat = 1;
        if (only != null) {
            String[] p = only.split(":");
            if (Integer.parseInt(p[0]) != workers) {
                return;
            }
            from = Integer.parseInt(p[1]);
            to = from + 1;
            repeat = p.length > 2 ? Integer.parseInt(p[2]) : 1;
        }
        for (int k = 0; k < (to - from) * repeat; k++) {
            int life = from + k % (to - from);
            long seed = 0x50A4_0000L + workers * 1_000_003L + life;
            Ending ending = Ending.values()[life % Ending.values().length];
            try {
                new Lifetime(workers, life, seed, ending).run(totals);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("lifetime " + life + " (workers=" + workers + ", seed=0x"
                        + Long.toHexString(seed) + ", ending=" + ending + ") failed: " + e.getMessage(), e);
            }
        }
        System.out.printf("soak, %d workers, %.1f s: %s%n", workers, (System.nanoTime() - t0) / 1e9, totals);
        TOTALS.put(workers, totals);
    }

    @AfterAll
    static void printTotals() {
        Totals all = new Totals();
        TOTALS.values().forEach(all::add);
        System.out.println("soak totals (" + (TestSupport.FULL ? "full" : "ci") + "): " + all);
    }

    /** One job's bookkeeping. */
    static final class Rec {
        final String name;
        final boolean onMain;
        final boolean counterless;   // fire-and-forget: its failure goes to the uncaught handler
        int submitKind;              // top-level: 0 run with counter, 1 submit, 2 submit with counter
        boolean hasCounter;          // top-level: finished[i] belongs to it
        final Behaviour b;
        final AtomicInteger runs = new AtomicInteger();
        volatile boolean submitted;
        volatile int outcome = NONE;
        volatile Throwable thrown;
        volatile JobHandle<?> handle;

        Rec(String name, boolean onMain, boolean counterless, Behaviour b) {
            this.name = name;
            this.onMain = onMain;
            this.counterless = counterless;
            this.b = b;
        }
    }

    /** What a job's body does, drawn when the job is made. */
    static final class Behaviour {
        int[] deps = new int[0];      // top-level jobs waited on
        boolean timedWaits;
        int children;                 // 0 or 2..5
        int childKind;                // 0 run, 1 submit, 2 runAll, 3 parallelFor, 4 orphans
        int mainCall;                 // 0 none, 1 joined, 2 fire-and-forget
        int cancelTop = -1;           // a top-level job whose handle this job cancels
        int pollMicros;
        int fail;                     // 0 or FAIL_*
        boolean shutdownNow;
        int depth;
        long seed;
    }

    /** One job-system lifetime. */
    static final class Lifetime {
        final int workers;
        final String name;
        final long seed;
        final Ending ending;
        final SplittableRandom rnd;
        final Thread mainThread = Thread.currentThread();
        volatile boolean hung;
        final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Rec> all = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Counter> counters = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<AtomicIntegerArray> ranges = new ConcurrentLinkedQueue<>();
        final AtomicReference<List<JobInfo>> nowList = new AtomicReference<>();
        final LongAdder workerStarts = new LongAdder();
        final LongAdder helpedStarts = new LongAdder();   // of workerStarts: run by the waiting main thread
        boolean helping;                                   // waitersHelp of this lifetime
        final LongAdder rangeBodies = new LongAdder();
        final LongAdder helpedRangePieces = new LongAdder();
        final AtomicLong mainStarts = new AtomicLong();
        final AtomicLong uncaught = new AtomicLong();
        final AtomicLong waitTimeouts = new AtomicLong();
        final LongAdder unchecked = new LongAdder(), checked = new LongAdder(), errors = new LongAdder();
        final LongAdder handleCancels = new LongAdder(), rejected = new LongAdder(), honoured = new LongAdder();
        final AtomicInteger childIds = new AtomicInteger();
        Rec[] top;
        Counter[] finished;
        Counter[] gate;
        JobGroup[] groups;
        int[] groupOf;
        JobSystem jobs;

        Lifetime(int workers, int life, long seed, Ending ending) {
            this.workers = workers;
            this.name = "soak" + workers + "-" + life;
            this.seed = seed;
            this.ending = ending;
            this.rnd = new SplittableRandom(seed);
        }

        void violation(String what) {
            if (violations.size() < 100) {
                violations.add(what);
            }
        }

        void run(Totals totals) {
            // A lifetime takes well under a second; one that hangs prints what every thread is doing and
            // is stopped, so a hang fails this test with a dump instead of running into CI's time limit.
            var hangGuard = HANG_GUARD.schedule(() -> {
                System.err.println("soak: " + name + " (seed 0x" + Long.toHexString(seed) + ", " + ending
                        + ", waitersHelp " + helping + ") still running after " + LIFETIME_LIMIT_SECONDS
                        + " s: stopping it\n" + dump());
                hung = true;
                JobSystem j = jobs;
                if (j != null) {
                    j.shutdownNow();
                }
                mainThread.interrupt();
            }, LIFETIME_LIMIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
            try {
                runAndAudit(totals);
                if (hung) {
                    fail("hung for " + LIFETIME_LIMIT_SECONDS + " s (thread dump on stderr)");
                }
            } catch (AssertionError | RuntimeException e) {
                if (hung) {
                    throw new AssertionError("hung for " + LIFETIME_LIMIT_SECONDS + " s (thread dump on stderr)", e);
                }
                throw e;
            } finally {
                hangGuard.cancel(false);
                Thread.interrupted();                   // the guard's interrupt must not reach the next lifetime
                if (jobs != null) {                   // after a failure: stop, and unbind the main thread
                    try {
                        jobs.shutdownNow();
                    } catch (RuntimeException e) {
                        e.printStackTrace();
                    }
                    try {
                        jobs.awaitTermination(LONG);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }

        private void runAndAudit(Totals totals) {
            int n = MAX_TOP_JOBS / 4 + rnd.nextInt(MAX_TOP_JOBS * 3 / 4);
            int stopAt = rnd.nextInt(n);
            int cancelGroupAt = rnd.nextInt(3) == 0 ? rnd.nextInt(n) : -1;
            build(n);
            helping = rnd.nextBoolean();                       // both ways a waiting main thread behaves
            JobSystemBuilder builder = JobSystem.builder().name(name).workers(workers).waitersHelp(helping)
                    .onUncaughtFailure((job, t) -> uncaught.incrementAndGet());
            if (rnd.nextInt(3) == 0) {
                builder.idleStrategy(IdleStrategy.backoff(0, 0));    // park at once: every hand-off wakes someone
            }
            jobs = builder.build();
            groups = new JobGroup[] {jobs.newGroup(name + "-g0"), jobs.newGroup(name + "-g1"), jobs.newGroup(name + "-g2")};
            jobs.bindMainThread();
            if (ending == Ending.SHUTDOWN_NOW_FROM_A_JOB) {
                top[rnd.nextInt(n)].b.shutdownNow = true;
            }
            Thread closer = null;
            if (ending == Ending.CLOSE_FROM_OTHER_THREAD || ending == Ending.SHUTDOWN_NOW_FROM_OTHER_THREAD) {
                long delayNanos = rnd.nextLong(3_000_000L);
                closer = new Thread(() -> {
                    long until = System.nanoTime() + delayNanos;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    if (ending == Ending.CLOSE_FROM_OTHER_THREAD) {
                        jobs.close();
                    } else {
                        nowList.compareAndSet(null, jobs.shutdownNow());
                    }
                }, name + "-closer");
                closer.start();
            }
            int groupCancels = 0;
            int[] order = windowedShuffle(n);
            for (int idx = 0; idx < n; idx++) {
                if (idx == stopAt && ending == Ending.SHUTDOWN_MIDWAY) {
                    jobs.shutdown();
                } else if (idx == stopAt && ending == Ending.SHUTDOWN_NOW_MIDWAY) {
                    nowList.compareAndSet(null, jobs.shutdownNow());
                }
                if (idx == cancelGroupAt) {
                    groups[rnd.nextInt(groups.length)].cancel();
                    groupCancels++;
                }
                submitTop(order[idx]);
                if (rnd.nextInt(20) == 0) {
                    Rec target = top[order[rnd.nextInt(idx + 1)]];
                    JobHandle<?> h = target.handle;
                    if (h != null && mayCancel(target)) {
                        h.cancel();
                        handleCancels.increment();
                    }
                }
                if ((idx & 31) == 31) {
                    jobs.runMainThreadJobs(200_000);
                }
            }
            waitForTopLevel();
            if (ending == Ending.DRAIN_THEN_CLOSE) {
                jobs.close();
            } else if (ending == Ending.SHUTDOWN_NOW_AFTER_DRAIN) {
                nowList.compareAndSet(null, jobs.shutdownNow());
            } else {
                jobs.shutdown();        // the endings that only cancel still need the workers stopped
            }
            try {
                // On the main thread this keeps running main-thread jobs (a closer thread's close() may
                // be waiting for a job that joins one), so only then join the closer.
                if (!jobs.awaitTermination(LONG)) {
                    fail(jobs + " did not terminate within " + LONG + "\n" + dump());
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            if (closer != null) {
                join(closer);
            }
            audit(totals, groupCancels);
        }

        private void build(int n) {
            top = new Rec[n];
            finished = new Counter[n];
            gate = new Counter[n];
            groupOf = new int[n];
            for (int i = 0; i < n; i++) {
                Behaviour b = behaviour(rnd, 0);
                int k = i == 0 ? 0 : rnd.nextInt(4);
                b.deps = new int[k];
                for (int d = 0; d < k; d++) {
                    b.deps[d] = i - 1 - rnd.nextInt(Math.min(i, 64));
                }
                if (rnd.nextInt(15) == 0) {
                    b.cancelTop = rnd.nextInt(n);
                }
                b.pollMicros = rnd.nextInt(20) == 0 ? 1 + rnd.nextInt(50) : 0;
                groupOf[i] = rnd.nextInt(4) - 1;          // -1: no group
                int kind = rnd.nextInt(3);                 // 0 pooled with counter, 1 handle, 2 handle + counter
                Rec r = new Rec(name + "-t" + i, false, false, b);
                r.submitKind = kind;
                r.hasCounter = kind == 0 || (kind == 2 && groupOf[i] < 0);
                top[i] = r;
                finished[i] = new Counter(r.name);
                gate[i] = new Counter(r.name + "-submitted");
                gate[i].add(1);
                counters.add(finished[i]);
                counters.add(gate[i]);
                all.add(r);
            }
        }

        private Behaviour behaviour(SplittableRandom r, int depth) {
            Behaviour b = new Behaviour();
            b.depth = depth;
            b.seed = r.nextLong();
            b.timedWaits = r.nextBoolean();
            if (depth < 2 && r.nextInt(depth == 0 ? 8 : 20) == 0) {
                b.children = 2 + r.nextInt(4);
                b.childKind = r.nextInt(5);
            }
            int m = r.nextInt(40);
            b.mainCall = m == 0 ? 1 : m == 1 ? 2 : 0;
            int f = r.nextInt(60);
            b.fail = f < 3 ? f + 1 : 0;
            return b;
        }

        private int[] windowedShuffle(int n) {
            int[] order = new int[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            for (int w = 0; w < n; w += 32) {
                int end = Math.min(n, w + 32);
                for (int i = end - 1; i > w; i--) {
                    int j = w + rnd.nextInt(i - w + 1);
                    int t = order[i];
                    order[i] = order[j];
                    order[j] = t;
                }
            }
            return order;
        }

        private void submitTop(int i) {
            Rec r = top[i];
            Priority p = Priority.VALUES[rnd.nextInt(3)];
            JobGroup g = groupOf[i] >= 0 ? groups[groupOf[i]] : null;
            int kind = r.submitKind;
            try {
                if (kind == 0) {
                    if (g != null) {
                        g.run(p, r.name, () -> body(r), finished[i]);
                    } else {
                        jobs.run(p, r.name, () -> body(r), finished[i]);
                    }
                } else if (g != null) {
                    r.handle = g.submit(p, r.name, () -> body(r));     // groups take no counter with submit
                } else {
                    r.handle = jobs.submit(p, r.name, () -> body(r), kind == 2 ? finished[i] : null);
                }
                r.submitted = true;
            } catch (RejectedExecutionException expected) {
                rejected.increment();
            }
            gate[i].decrement();                        // publishes r.handle / r.submitted to waiters
        }

        /** The body of every job: does what its behaviour says and records what happened. */
        Object body(Rec r) throws Exception {
            if (r.runs.incrementAndGet() != 1) {
                violation(r.name + " ran " + r.runs.get() + " times");
            }
            if (r.onMain) {
                mainStarts.incrementAndGet();
                if (Thread.currentThread() != mainThread) {
                    violation(r.name + ": main-thread job ran on " + Thread.currentThread());
                }
            } else {
                workerStarts.increment();
                if (!Jobs.inFiber()) {
                    // Only a waiting main thread may run a job outside a fiber (waitersHelp), as worker
                    // number workerCount().
                    if (!helping || Thread.currentThread() != mainThread || Jobs.workerIndex() != workers) {
                        violation(r.name + ": job ran outside a fiber on " + Thread.currentThread()
                                + " (worker index " + Jobs.workerIndex() + ", waitersHelp " + helping + ")");
                    } else {
                        helpedStarts.increment();
                    }
                }
            }
            Behaviour b = r.b;
            try {
                for (int d : b.deps) {
                    waitForTop(r, d, b.timedWaits);
                }
                if (b.children > 0) {
                    spawnChildren(r, b);
                }
                if (b.mainCall != 0 && !r.onMain) {
                    callMainThread(r, b);
                }
                if (b.cancelTop >= 0) {
                    JobHandle<?> h = top[b.cancelTop].handle;
                    if (h != null && mayCancel(top[b.cancelTop])) {
                        h.cancel();
                        handleCancels.increment();
                    }
                }
                if (b.shutdownNow) {
                    nowList.compareAndSet(null, jobs.shutdownNow());
                }
                if (b.pollMicros > 0) {
                    long until = System.nanoTime() + b.pollMicros * 1000L;
                    while (System.nanoTime() < until) {
                        Jobs.checkCancelled();
                        Thread.onSpinWait();
                    }
                }
                if (b.fail != 0) {
                    r.outcome = FAILED;
                    switch (b.fail) {
                        case FAIL_UNCHECKED -> {
                            unchecked.increment();
                            r.thrown = new IllegalStateException("injected unchecked failure in " + r.name);
                        }
                        case FAIL_CHECKED -> {
                            checked.increment();
                            r.thrown = new IOException("injected checked failure in " + r.name);
                        }
                        default -> {
                            errors.increment();
                            r.thrown = new InjectedError("injected Error in " + r.name);
                        }
                    }
                    throwIt(r.thrown);
                }
                r.outcome = OK;
                return r.name;
            } catch (JobCancelledException e) {
                if (r.outcome == NONE && Jobs.isCancelled()) {
                    r.outcome = HONOURED;
                    honoured.increment();
                    throw e;
                }
                r.outcome = UNEXPECTED;
                violation(r.name + ": unexpected " + e);
                throw e;
            } catch (Exception | Error e) {
                if (r.outcome == FAILED && e == r.thrown) {
                    throw e;
                }
                r.outcome = UNEXPECTED;
                violation(r.name + ": unexpected " + e + stackOf(e));
                throw e;
            }
        }

        /** Every handle may be cancelled (the double completion of 3459ad4 is fixed). */
        private boolean mayCancel(Rec target) {
            return target != null;
        }

        private static void throwIt(Throwable t) throws Exception {
            if (t instanceof Exception e) {
                throw e;
            }
            throw (Error) t;
        }

        /** Waits for top-level job {@code d} and checks that the wait reported exactly its outcome. */
        private void waitForTop(Rec waiter, int d, boolean timed) {
            awaitCounter(gate[d], timed, waiter);          // a cancellation here is ours (honoured by body())
            Rec dep = top[d];
            if (!dep.submitted) {
                return;                                   // refused at submission: nothing to wait for
            }
            JobHandle<?> h = dep.handle;
            boolean viaHandle = h != null && (!dep.hasCounter || (d & 1) == 0);
            try {
                if (viaHandle) {
                    if (timed) {
                        try {
                            h.join(JOB_WAIT);
                        } catch (TimeoutException e) {
                            waitTimeouts.incrementAndGet();
                            violation(waiter.name + ": join of " + dep.name + " timed out");
                            return;
                        }
                    } else {
                        h.join();
                    }
                } else {
                    awaitCounter(finished[d], timed, waiter);
                }
                int o = dep.outcome;
                if (o == FAILED || o == UNEXPECTED || (viaHandle && o != OK)) {
                    violation(waiter.name + " woke normally from " + dep.name + " whose outcome is " + o);
                }
            } catch (JobFailedException e) {
                if (dep.outcome != FAILED || e.getCause() != dep.thrown) {
                    violation(waiter.name + " got " + e + " from " + dep.name + " whose outcome is " + dep.outcome);
                }
            } catch (JobCancelledException e) {
                if (Jobs.isCancelled()) {
                    throw e;                              // the waiter itself was cancelled: it honours it
                }
                if (!viaHandle || !h.isCancelled()) {
                    violation(waiter.name + " got " + e + " waiting on " + dep.name + " (handle " + h + ")");
                }
            }
        }

        private void awaitCounter(Counter c, boolean timed, Rec waiter) {
            if (!timed) {
                c.await();
            } else if (!c.await(JOB_WAIT)) {
                waitTimeouts.incrementAndGet();
                violation(waiter.name + ": wait on " + c + " timed out after " + JOB_WAIT);
            }
        }

        private void spawnChildren(Rec parent, Behaviour b) {
            SplittableRandom r = new SplittableRandom(b.seed);
            Counter kids = new Counter(parent.name + "-kids");
            counters.add(kids);
            Priority p = Priority.VALUES[r.nextInt(3)];
            List<Rec> made = new ArrayList<>();
            AtomicIntegerArray coverage = null;
            try {
                switch (b.childKind) {
                    case 0, 1, 4 -> {
                        for (int c = 0; c < b.children; c++) {
                            Rec child = child(parent, r, b.childKind == 4);
                            made.add(child);
                            if (b.childKind == 1) {
                                child.handle = jobs.submit(p, child.name, () -> body(child), kids);
                            } else {
                                jobs.run(p, child.name, () -> body(child), b.childKind == 4 ? null : kids);
                            }
                            child.submitted = true;
                        }
                    }
                    case 2 -> {
                        Job[] batch = new Job[b.children];
                        for (int c = 0; c < b.children; c++) {
                            Rec child = child(parent, r, false);
                            made.add(child);
                            batch[c] = () -> body(child);
                        }
                        jobs.runAll(p, kids, batch);      // inside a job: all of the batch or none of it
                        made.forEach(c -> c.submitted = true);
                    }
                    default -> {
                        int length = 16 + r.nextInt(500);
                        AtomicIntegerArray cov = new AtomicIntegerArray(length);
                        jobs.parallelFor(p, 0, length, 1 + r.nextInt(64), (s, e, w) -> {
                            rangeBodies.increment();
                            if (!Jobs.inFiber()) {
                                helpedRangePieces.increment();
                            }
                            for (int k = s; k < e; k++) {
                                cov.incrementAndGet(k);
                            }
                        }, kids);
                        coverage = cov;                    // submitted (a refused one throws first)
                        ranges.add(cov);
                    }
                }
            } catch (RejectedExecutionException refused) {
                rejected.increment();
            }
            boolean timed = r.nextBoolean();
            try {
                awaitCounter(kids, timed, parent);
                if (coverage != null && !Jobs.isCancelled()) {
                    for (int k = 0; k < coverage.length(); k++) {
                        if (coverage.get(k) != 1) {
                            violation(parent.name + ": parallelFor element " + k + " ran " + coverage.get(k)
                                    + " times though nothing was cancelled");
                            break;
                        }
                    }
                }
                for (Rec c : made) {
                    if (!c.counterless && c.outcome == FAILED) {
                        violation(parent.name + ": child " + c.name + " failed but the wait on its counter did not throw");
                    }
                }
            } catch (JobFailedException e) {
                boolean ours = made.stream().anyMatch(c -> c.thrown == e.getCause());
                if (!ours) {
                    violation(parent.name + ": children's counter failed with a stranger's failure " + e);
                }
            }
        }

        private Rec child(Rec parent, SplittableRandom r, boolean orphan) {
            Behaviour cb = behaviour(r, parent.b.depth + 1);
            Rec c = new Rec(parent.name + "-c" + childIds.incrementAndGet(), false, orphan, cb);
            all.add(c);
            return c;
        }

        private void callMainThread(Rec parent, Behaviour b) {
            Behaviour mb = new Behaviour();
            mb.fail = b.fail == 0 && (b.seed & 7) == 0 ? FAIL_UNCHECKED : 0;
            Rec m = new Rec(parent.name + "-main", true, false, mb);
            all.add(m);
            JobHandle<Object> h;
            try {
                h = jobs.onMainThread(m.name, () -> body(m));
            } catch (RejectedExecutionException refused) {
                rejected.increment();
                return;
            }
            m.handle = h;
            m.submitted = true;
            if (b.mainCall != 1) {
                return;                                   // fire and forget
            }
            try {
                if (b.timedWaits) {
                    h.join(JOB_WAIT);
                } else {
                    h.join();
                }
                if (m.outcome != OK) {
                    violation(parent.name + ": main-thread job returned but its outcome is " + m.outcome);
                }
            } catch (TimeoutException e) {
                waitTimeouts.incrementAndGet();
                violation(parent.name + ": join of main-thread job timed out");
            } catch (JobFailedException e) {
                if (m.outcome != FAILED || e.getCause() != m.thrown) {
                    violation(parent.name + ": main-thread join threw " + e + " but outcome is " + m.outcome);
                }
            } catch (JobCancelledException e) {
                if (Jobs.isCancelled()) {
                    throw e;
                }
                if (!h.isCancelled()) {
                    violation(parent.name + ": main-thread join threw " + e + " though the job was not cancelled");
                }
            }
        }

        /** The test thread waits for every top-level job (running main-thread jobs meanwhile). */
        private void waitForTopLevel() {
            for (int i = 0; i < top.length; i++) {
                Rec r = top[i];
                if (!r.submitted) {
                    continue;
                }
                try {
                    JobHandle<?> h = r.handle;
                    if (h != null) {
                        h.join(LONG);
                    } else if (!finished[i].await(LONG)) {
                        fail("top-level job " + r.name + " did not end within " + LONG + "\n" + dump());
                    }
                } catch (TimeoutException e) {
                    fail("top-level job " + r.name + " did not end within " + LONG + "\n" + dump());
                } catch (JobFailedException | JobCancelledException expected) {
                    // checked per job in audit()
                }
            }
        }

        private void audit(Totals totals, int groupCancels) {
            JobSystemStats s = jobs.stats();
            long knownSubmitted = 0, started = 0, mainSubmitted = 0, mainStarted = 0, orphanFailures = 0;
            Map<String, Rec> byName = new HashMap<>();
            for (Rec r : all) {
                byName.put(r.name, r);
                int runs = r.runs.get();
                if (runs > 1 || (!r.submitted && runs != 0)) {
                    violation(r.name + " submitted=" + r.submitted + " ran " + runs + " times");
                }
                if (runs == 1 && (r.outcome == NONE || r.outcome == UNEXPECTED)) {
                    violation(r.name + " ran but its outcome is " + r.outcome);
                }
                if (r.submitted) {
                    if (r.onMain) {
                        mainSubmitted++;
                        mainStarted += runs;
                    } else {
                        knownSubmitted++;
                        started += runs;
                    }
                }
                if (r.counterless && r.outcome == FAILED) {
                    orphanFailures++;
                }
                JobHandle<?> h = r.handle;
                if (h != null) {
                    checkHandle(r, h, runs);
                }
            }
            for (int i = 0; i < top.length; i++) {
                Rec r = top[i];
                if (r.submitted && r.hasCounter && (finished[i].failure() != null) != (r.outcome == FAILED)) {
                    violation(r.name + ": counter failure " + finished[i].failure() + " but outcome " + r.outcome);
                }
            }
            long uncovered = 0;
            for (AtomicIntegerArray cov : ranges) {
                for (int k = 0; k < cov.length(); k++) {
                    int c = cov.get(k);
                    if (c > 1) {
                        violation("a parallelFor element ran " + c + " times");
                    }
                    uncovered += c == 0 ? 1 : 0;
                }
            }
            Violations.check(this);
            assertEquals(0, waitTimeouts.get(), "waits that timed out");
            assertEquals(workerStarts.sum(), started, "bodies started on workers vs per-job run counts");
            assertEquals(started + rangeBodies.sum(), s.jobsRun(), "stats().jobsRun() = job bodies that started on workers");
            assertEquals(mainStarted, s.mainThreadJobsRun(), "stats().mainThreadJobsRun()");
            assertEquals(mainStarts.get(), mainStarted);
            long cancelledKnown = knownSubmitted + mainSubmitted - started - mainStarted;
            long cancelledPieces = s.jobsCancelled() - cancelledKnown;
            assertTrue(cancelledPieces >= 0 && cancelledPieces <= uncovered && (uncovered == 0) == (cancelledPieces == 0),
                    "submitted " + (knownSubmitted + mainSubmitted) + " = started " + (started + mainStarted)
                            + " + cancelled; stats().jobsCancelled() = " + s.jobsCancelled() + ", which leaves "
                            + cancelledPieces + " cancelled parallelFor pieces for " + uncovered + " uncovered elements");
            assertEquals(orphanFailures, uncaught.get(), "failures of fire-and-forget jobs reached the uncaught handler");
            List<JobInfo> reported = nowList.get();
            if (reported != null) {
                assertTrue(reported.size() <= s.jobsCancelled(), reported.size() + " reported > " + s.jobsCancelled());
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (JobInfo info : reported) {
                    Rec r = byName.get(info.name());
                    if (r != null) {
                        assertTrue(seen.add(info.name()), "shutdownNow reported " + info.name() + " twice");
                        assertEquals(0, r.runs.get(), "shutdownNow reported " + info.name() + ", which ran");
                        assertTrue(r.submitted, "shutdownNow reported " + info.name() + ", which was never submitted");
                    }
                }
            }
            for (Counter c : counters) {
                assertEquals(0, c.value(), c + " did not end at zero");
            }
            assertEquals(0, s.fibersParked(), "fibers parked after termination");
            assertEquals(0, s.fibersAlive(), "fibers alive after termination: " + s);
            String prefix = name + "-worker-";
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith(prefix)) {
                    join(t);                               // it counted down termination and is leaving
                }
            }
            if (!helping) {
                assertEquals(0, s.jobsRunByWaiters(), "jobs run by waiters with waitersHelp(false)");
            }
            assertEquals(helpedStarts.sum(), s.jobsRunByWaiters() - helpedRangePieces.sum(),
                    "stats().jobsRunByWaiters() = job bodies the main thread ran while it waited");
            Totals mine = new Totals();
            mine.lifetimes = 1;
            mine.helped = s.jobsRunByWaiters();
            mine.jobsRun = s.jobsRun();
            mine.mainThreadJobsRun = s.mainThreadJobsRun();
            mine.cancelled = s.jobsCancelled();
            mine.rejected = rejected.sum();
            mine.reportedByShutdownNow = reported == null ? 0 : reported.size();
            mine.unchecked = unchecked.sum();
            mine.checked = checked.sum();
            mine.errors = errors.sum();
            mine.handleCancels = handleCancels.sum();
            mine.groupCancels = groupCancels;
            mine.honoured = honoured.sum();
            mine.waits = s.waits();
            mine.rangePieces = rangeBodies.sum();
            mine.endings.put(ending, 1);
            totals.add(mine);
        }

        private void checkHandle(Rec r, JobHandle<?> h, int runs) {
            if (!h.isDone()) {
                violation(h + " of " + r.name + " is not done after termination");
                return;
            }
            int o = r.outcome;
            if (runs == 0) {
                if (!h.isCancelled()) {
                    violation(h + " never ran but is not cancelled");
                }
                return;
            }
            switch (o) {
                case OK -> {
                    if (h.isCancelled() || !r.name.equals(h.getNow(null))) {
                        violation(h + " ended OK but reports " + h.getNow(null));
                    }
                }
                case FAILED -> {
                    try {
                        h.join(LONG);
                        violation(h + " failed but join returned");
                    } catch (JobFailedException e) {
                        if (e.getCause() != r.thrown) {
                            violation(h + ": join's cause " + e.getCause() + " is not what the job threw");
                        }
                    } catch (TimeoutException | JobCancelledException e) {
                        violation(h + " failed but join threw " + e);
                    }
                }
                case HONOURED -> {
                    if (!h.isCancelled()) {
                        violation(h + " ended by honouring a cancellation but is not cancelled");
                    }
                }
                default -> violation(h + " ran with outcome " + o);
            }
        }

        private void join(Thread t) {
            try {
                t.join(LONG.toMillis());
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            if (t.isAlive()) {
                fail(t.getName() + " still alive after " + LONG + " (terminated: " + jobs.isTerminated() + ")\n" + dump());
            }
        }

        /** Platform threads, then every live fiber of this system with its job and stack. */
        String dump() {
            return TestSupport.threadDump() + FiberDumps.of(jobs);
        }
    }

    private static String stackOf(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        return "\n" + w;
    }

    /** The failure kind no job should ever catch. */
    static final class InjectedError extends Error {
        private static final long serialVersionUID = 1L;

        InjectedError(String message) {
            super(message);
        }
    }

    private static final class Violations {
        static void check(Lifetime l) {
            if (!l.violations.isEmpty()) {
                fail(l.violations.size() + " violation(s), first: \n  " + String.join("\n  ",
                        l.violations.stream().limit(10).toList()));
            }
        }
    }
}
