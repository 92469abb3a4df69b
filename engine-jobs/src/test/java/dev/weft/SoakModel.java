package dev.weft;

import static dev.weft.TestSupport.LONG;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one soak lifetime ({@link SoakTest}) shares between its run ({@link SoakLifetime}) and its audit
 * ({@link SoakAudit}): the bookkeeping every job writes, the records the audit reads, and the totals. Three
 * classes in a chain so that each file stays readable; the state lives here alone.
 */
abstract class SoakModel {
    static final int MAX_TOP_JOBS = TestSupport.FULL ? 3000 : 500;
    // A job woken with a JobCancelledException that is not its own (it ran nested inside a cancelled
    // handle's wait, SoakFindingsTest#cancellingAHandleDoesNotFailAJobItRunsInline) fails the soak:
    // that defect is fixed, and the soak counted it as known until then.
    /** A lifetime still running after this long hangs (they take well under a second). */
    static final long LIFETIME_LIMIT_SECONDS = 120;
    static final java.util.concurrent.ScheduledExecutorService HANG_GUARD =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "soak-hang-guard");
                t.setDaemon(true);
                return t;
            });
    /** Timed waits inside jobs: longer than the test thread's, so a hang is caught while it still hangs. */
    static final java.time.Duration JOB_WAIT = LONG.multipliedBy(2);

    // Outcome a job's body recorded (NONE: the body never ran, or has not finished).
    static final int NONE = 0;
    static final int OK = 1;
    static final int FAILED = 2;
    static final int HONOURED = 3;       // ended by throwing JobCancelledException after being asked
    static final int UNEXPECTED = 4;

    static final int FAIL_UNCHECKED = 1;
    static final int FAIL_CHECKED = 2;
    static final int FAIL_ERROR = 3;


    enum Ending {
        DRAIN_THEN_CLOSE, SHUTDOWN_MIDWAY, CLOSE_FROM_OTHER_THREAD, SHUTDOWN_NOW_MIDWAY,
        SHUTDOWN_NOW_FROM_OTHER_THREAD, SHUTDOWN_NOW_FROM_A_JOB, SHUTDOWN_NOW_AFTER_DRAIN
    }

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

/** The failure kind no job should ever catch. */
static final class InjectedError extends Error {
    private static final long serialVersionUID = 1L;

    InjectedError(String message) {
        super(message);
    }
}

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

    SoakModel(int workers, int life, long seed, Ending ending) {
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

    /** Platform threads, then every live fiber of this system with its job and stack. */
    String dump() {
        return TestSupport.threadDump() + FiberDumps.of(jobs);
    }

    /** Fails the lifetime with the first violations recorded, if any. */
    void checkNoViolations() {
        if (!violations.isEmpty()) {
            fail(violations.size() + " violation(s), first: \n  " + String.join("\n  ",
                    violations.stream().limit(10).toList()));
        }
    }

    static String stackOf(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        return "\n" + w;
    }
}
