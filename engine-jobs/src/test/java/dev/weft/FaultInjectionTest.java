package dev.weft;

import static dev.weft.TestSupport.LONG;
import static dev.weft.TestSupport.await;
import static dev.weft.TestSupport.join;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Faults inside jobs. Guarantees:
 * <ul>
 *   <li>a job that throws — unchecked, checked, an Error, a StackOverflowError from deep recursion (also
 *       nested, while holding a monitor, and after parking with a deep stack) — fails that job only: its
 *       waiter gets a JobFailedException naming it with the original cause, every other job runs, and the
 *       system keeps running afterwards (also on the same carrier, many times over);</li>
 *   <li>a job that blocks its carrier (a FIFO read, a class initializer that sleeps, a busy loop) stalls
 *       only its own worker: with two or more workers the rest of the work goes on, including work the
 *       blocked job pushed onto its own deque before blocking, and the watchdog names the culprit with
 *       its stack;</li>
 *   <li>on JDK 25, Thread.sleep inside synchronized does not block the carrier (JEP 491): even one
 *       worker goes on with other jobs.</li>
 * </ul>
 */
@Timeout(300)
class FaultInjectionTest {
    private static final int ROUNDS = TestSupport.FULL ? 20 : 3;
    private static final int OTHERS = TestSupport.FULL ? 2000 : 300;
    private static final Duration WATCHDOG = Duration.ofMillis(200);

    enum Fault {
        UNCHECKED(IllegalStateException.class),
        CHECKED(IOException.class),
        ERROR(InjectedError.class),
        VIRTUAL_MACHINE_ERROR(OutOfMemoryError.class),        // thrown, not a real OOM
        STACK_OVERFLOW(StackOverflowError.class),
        STACK_OVERFLOW_NESTED(StackOverflowError.class),     // in a child run inline by its waiting parent
        STACK_OVERFLOW_HOLDING_A_MONITOR(StackOverflowError.class),
        STACK_OVERFLOW_AFTER_PARKING_DEEP(StackOverflowError.class);

        final Class<? extends Throwable> cause;

        Fault(Class<? extends Throwable> cause) {
            this.cause = cause;
        }
    }

    static Stream<Arguments> faultsAndWorkers() {
        return Stream.of(1, 2, 4).flatMap(w -> Stream.of(Fault.values()).map(f -> Arguments.of(f, w)));
    }

    static final Object MONITOR = new Object();

    /** Recursion with a few locals per frame, until the stack runs out. */
    static long recurse(long depth) {
        long[] pad = {depth, depth + 1};
        return recurse(depth + 1) + pad[1];
    }

    /** Recursion to {@code depth}, then a park with all of it on the stack, then on until it overflows. */
    static long deepThenPark(int depth, Counter gate) {
        if (depth == 0) {
            gate.await();                       // freezes a continuation thousands of frames deep
            return recurse(0);
        }
        return deepThenPark(depth - 1, gate) + 1;
    }

    @ParameterizedTest(name = "{0}, workers={1}")
    @MethodSource("faultsAndWorkers")
    void aFailingJobFailsAloneAndTheSystemKeepsRunning(Fault fault, int workers) {
        AtomicInteger uncaught = new AtomicInteger();
        try (JobSystem jobs = JobSystem.builder().name("fault" + workers).workers(workers)
                .onUncaughtFailure((job, t) -> uncaught.incrementAndGet()).build()) {
            for (int round = 0; round < ROUNDS; round++) {
                Counter others = new Counter("others");
                AtomicInteger ran = new AtomicInteger();
                for (int i = 0; i < OTHERS / 2; i++) {
                    jobs.run(Priority.VALUES[i % 3], "other", ran::incrementAndGet, others);
                }
                Counter gate = new Counter("gate");
                gate.add(1);
                JobHandle<Object> bad = jobs.submit(Priority.NORMAL, "faulty " + fault, () -> inject(jobs, fault, gate));
                for (int i = 0; i < OTHERS / 2; i++) {
                    jobs.run(Priority.VALUES[i % 3], "other", () -> {
                        Counter child = new Counter("child");
                        jobs.run(ran::incrementAndGet, child);
                        child.await();                                    // parks or runs the child inline
                    }, others);
                }
                if (fault == Fault.STACK_OVERFLOW_AFTER_PARKING_DEEP) {
                    int thisRound = round;
                    TestSupport.eventually(() -> "the deep job parked on the gate; round " + thisRound + ", " + bad + ", "
                            + jobs.stats() + ", fibers " + TestSupport.fiberStates(jobs),
                            () -> jobs.schedulerForTests().fibers.all()
                            .stream().anyMatch(f -> f.waitNode != null && f.waitNode.counter == gate));
                }
                gate.decrement();
                JobFailedException e = assertThrows(JobFailedException.class, () -> join(bad));
                assertInstanceOf(fault.cause, fault == Fault.STACK_OVERFLOW_NESTED ? e.getCause().getCause() : e.getCause(),
                        "cause of " + e);
                assertTrue(e.getMessage().contains("faulty " + fault), e.getMessage());
                await(others);
                assertEquals(OTHERS, ran.get(), "every other job ran");
                assertNotNull(TestSupport.join(jobs.submit(() -> "still running")));
            }
            Counter ranges = new Counter("after");
            AtomicInteger covered = new AtomicInteger();
            jobs.parallelFor(Priority.NORMAL, 0, 10_000, 100, (s, e, w) -> covered.addAndGet(e - s), ranges);
            await(ranges);
            assertEquals(10_000, covered.get());
            assertEquals(0, uncaught.get(), "every failure had a waiter");
            assertEquals(0, jobs.stats().fibersParked());
        }
    }

    private static Object inject(JobSystem jobs, Fault fault, Counter gate) throws Exception {
        switch (fault) {
            case UNCHECKED -> throw new IllegalStateException("injected");
            case CHECKED -> throw new IOException("injected");
            case ERROR -> throw new InjectedError("injected");
            case VIRTUAL_MACHINE_ERROR -> throw new OutOfMemoryError("injected, not a real one");
            case STACK_OVERFLOW -> {
                return recurse(0);
            }
            case STACK_OVERFLOW_NESTED -> {
                Counter child = new Counter("overflowing child");
                jobs.run(Priority.NORMAL, "overflowing child", () -> recurse(0), child);
                child.await();                                           // throws JobFailedException(SOE)
                return null;
            }
            case STACK_OVERFLOW_HOLDING_A_MONITOR -> {
                synchronized (MONITOR) {
                    return recurse(0);
                }
            }
            case STACK_OVERFLOW_AFTER_PARKING_DEEP -> {
                // 2,000 frames (a few hundred KB frozen). At 20,000 the park itself sometimes failed: the
                // JVM threw StackOverflowError("Humongous stack chunk") instead of freezing a stack chunk
                // near G1's humongous size (half a region: 2 MB with 4 MB regions; regions are 1-32 MB by
                // heap size), depending on frame sizes (JIT state).
                return deepThenPark(2_000, gate);
            }
            default -> throw new AssertionError(fault);
        }
    }

    /** After an overflow while holding a monitor, the monitor is free again. */
    @Test
    void aStackOverflowReleasesTheMonitorsTheJobHeld() {
        try (JobSystem jobs = TestSupport.system(2)) {
            JobHandle<Object> bad = jobs.submit(() -> inject(jobs, Fault.STACK_OVERFLOW_HOLDING_A_MONITOR, null));
            assertThrows(JobFailedException.class, () -> join(bad));
            JobHandle<Boolean> next = jobs.submit(() -> {
                synchronized (MONITOR) {
                    return Thread.holdsLock(MONITOR);
                }
            });
            assertTrue(join(next));
            assertFalse(Thread.holdsLock(MONITOR));
        }
    }

    /** Many overflows in a row on one small-stacked carrier: the guard pages come back every time. */
    @Test
    void repeatedStackOverflowsOnOneCarrier() {
        try (JobSystem jobs = JobSystem.builder().name("overflow").workers(1).workerStackBytes(1L << 20).build()) {
            int n = TestSupport.FULL ? 2000 : 200;
            for (int i = 0; i < n; i++) {
                JobHandle<Long> h = jobs.submit(() -> recurse(0));
                JobFailedException e = assertThrows(JobFailedException.class, () -> join(h));
                assertInstanceOf(StackOverflowError.class, e.getCause());
            }
            assertEquals(7, join(jobs.submit(() -> 7)));
        }
    }

    // ---------------------------------------------------------------- jobs that block their carrier

    /** Blocks the carrier in open(2) of a FIFO until the test writes to it. */
    static byte[] readFromFifoOnPurpose(Path fifo) throws IOException {
        try (FileInputStream in = new FileInputStream(fifo.toFile())) {
            return in.readAllBytes();
        }
    }

    private static Path fifo(Path dir) throws Exception {
        Path fifo = dir.resolve("weft-fifo");
        Process p;
        try {
            p = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no mkfifo on this machine: " + e);
            throw e;
        }
        assumeTrue(p.waitFor() == 0 && Files.exists(fifo), "mkfifo failed");
        return fifo;
    }

    private static JobSystem withWatchdog(String name, int workers, List<WatchdogReport> reports) {
        Consumer<WatchdogReport> sink = reports::add;
        return JobSystem.builder().name(name).workers(workers).watchdog(WATCHDOG, sink).build();
    }

    /** Everything but the blocked worker's current job still runs: outside work, and the blocked job's children. */
    private static void theRestRuns(JobSystem jobs) {
        Counter rest = new Counter("rest");
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < OTHERS; i++) {
            jobs.run(Priority.VALUES[i % 3], "rest", () -> {
                Counter child = new Counter();
                jobs.run(ran::incrementAndGet, child);
                child.await();
                ran.incrementAndGet();
            }, rest);
        }
        await(rest);
        assertEquals(2 * OTHERS, ran.get());
    }

    private static WatchdogReport reportOf(List<WatchdogReport> reports, WatchdogReport.Kind kind, String job) {
        TestSupport.eventually("a " + kind + " report naming '" + job + "' (reports so far: " + reports + ")",
                () -> reports.stream().anyMatch(r -> r.kind() == kind && r.jobName().equals(job)));
        return reports.stream().filter(r -> r.kind() == kind && r.jobName().equals(job)).findFirst().orElseThrow();
    }

    private static boolean stackHas(WatchdogReport r, String method) {
        return r.stack().stream().anyMatch(e -> e.getMethodName().equals(method));
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {2, 4})
    void aJobBlockedInAFifoReadStallsOnlyItsWorkerAndTheWatchdogNamesIt(int workers, @TempDir Path dir) throws Exception {
        Path fifo = fifo(dir);
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        try (JobSystem jobs = withWatchdog("fifo" + workers, workers, reports)) {
            Counter children = new Counter("children of the blocked job");
            AtomicInteger childRuns = new AtomicInteger();
            Counter blocked = new Counter("about to block");
            blocked.add(1);
            JobHandle<byte[]> reader = jobs.submit(Priority.NORMAL, "fifo reader", () -> {
                for (int i = 0; i < 100; i++) {
                    jobs.run(childRuns::incrementAndGet, children);      // on this worker's own deque
                }
                blocked.decrement();
                return readFromFifoOnPurpose(fifo);                      // blocks the carrier, not just the fiber
            });
            await(blocked);
            await(children);                                             // stolen by the other workers
            assertEquals(100, childRuns.get());
            theRestRuns(jobs);
            assertFalse(reader.isDone());
            WatchdogReport r = reportOf(reports, WatchdogReport.Kind.BLOCKED_WORKER, "fifo reader");
            assertTrue(stackHas(r, "readFromFifoOnPurpose") && stackHas(r, "open0"), "stack: " + r.stack());
            assertTrue(r.millis() >= WATCHDOG.toMillis(), r.toString());
            try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
                out.write("unblocked".getBytes(StandardCharsets.US_ASCII));
            }
            assertEquals("unblocked", new String(join(reader), StandardCharsets.US_ASCII));
        }
    }

    /** Its class initializer sleeps: a virtual thread running {@code <clinit>} cannot unmount, so it pins. */
    static final class SlowToInitialize {
        static final long READY_AT;

        static {
            TestSupport.sleepMillis(4 * WATCHDOG.toMillis());
            READY_AT = System.nanoTime();
        }

        private SlowToInitialize() {}
    }

    @Test
    void aJobPinnedInAClassInitializerStallsOnlyItsWorkerAndTheWatchdogNamesIt() {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        try (JobSystem jobs = withWatchdog("clinit", 2, reports)) {
            Counter started = new Counter();
            started.add(1);
            JobHandle<Long> init = jobs.submit(Priority.NORMAL, "class initializer", () -> {
                started.decrement();
                return SlowToInitialize.READY_AT;
            });
            await(started);
            theRestRuns(jobs);
            WatchdogReport r = reportOf(reports, WatchdogReport.Kind.BLOCKED_WORKER, "class initializer");
            assertTrue(stackHas(r, "<clinit>"), "stack: " + r.stack());
            assertTrue(join(init) > 0);
        }
    }

    @Test
    void aBusyJobHoldingItsWorkerIsNamedByTheWatchdog() {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        try (JobSystem jobs = withWatchdog("busy", 2, reports)) {
            AtomicBoolean stop = new AtomicBoolean();
            JobHandle<Long> busy = jobs.submit(Priority.NORMAL, "busy loop", () -> spinOnPurpose(stop));
            theRestRuns(jobs);
            WatchdogReport r = reportOf(reports, WatchdogReport.Kind.BLOCKED_WORKER, "busy loop");
            assertTrue(stackHas(r, "spinOnPurpose"), "stack: " + r.stack());
            stop.set(true);
            assertTrue(join(busy) > 0);
        }
    }

    static long spinOnPurpose(AtomicBoolean stop) {
        long spins = 0;
        while (!stop.get()) {
            spins++;
            Thread.onSpinWait();
        }
        return spins;
    }

    static void waitingOnPurpose(Counter never) {
        never.await();
    }

    @Test
    void aJobParkedLongerThanTheThresholdIsReportedWithItsStack() {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        try (JobSystem jobs = withWatchdog("longwait", 2, reports)) {
            Counter never = new Counter("asset that never loads");
            never.add(1);
            JobHandle<Object> waiter = jobs.submit(Priority.NORMAL, "stuck loader", () -> {
                waitingOnPurpose(never);
                return null;
            });
            WatchdogReport r = reportOf(reports, WatchdogReport.Kind.LONG_WAIT, "stuck loader");
            assertTrue(stackHas(r, "waitingOnPurpose"), "stack: " + r.stack());
            assertTrue(r.detail().contains("asset that never loads"), r.detail());
            assertTrue(reports.stream().noneMatch(x -> x.kind() == WatchdogReport.Kind.BLOCKED_WORKER),
                    "a parked job holds no worker: " + reports);
            never.decrement();
            join(waiter);
        }
    }

    /**
     * JDK 25 (JEP 491): a virtual thread sleeping inside synchronized unmounts, so even one worker goes
     * on with other jobs, and a contender for the monitor parks instead of pinning. It holds no worker,
     * so the watchdog reports no blocked worker; it does report the long sleep (a wait outside Weft's
     * waits) with the sleeper's stack, and the contender as blocked on a monitor.
     */
    @Test
    void sleepingInsideSynchronizedDoesNotHoldTheOnlyWorker() {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        try (JobSystem jobs = withWatchdog("sleepsync", 1, reports)) {
            Object monitor = new Object();
            Counter holding = new Counter();
            holding.add(1);
            JobHandle<String> sleeper = jobs.submit(Priority.NORMAL, "sleeps holding a monitor", () -> {
                synchronized (monitor) {
                    holding.decrement();
                    Thread.sleep(4 * WATCHDOG.toMillis());
                    // Keep holding the monitor until the watchdog has named the contender blocked on it.
                    long end = System.nanoTime() + TestSupport.LONG.toNanos();
                    while (reports.stream().noneMatch(x -> x.jobName().equals("monitor contender"))
                            && System.nanoTime() < end) {
                        Thread.sleep(WATCHDOG.toMillis());
                    }
                }
                return "woke";
            });
            await(holding);
            JobHandle<String> contender = jobs.submit(Priority.NORMAL, "monitor contender", () -> {
                synchronized (monitor) {
                    return "got it";
                }
            });
            theRestRuns(jobs);
            assertFalse(sleeper.isDone(), "the other jobs ran while it slept, on the only worker");
            assertEquals("woke", join(sleeper));
            assertEquals("got it", join(contender));
            assertTrue(reports.stream().noneMatch(x -> x.kind() == WatchdogReport.Kind.BLOCKED_WORKER), reports.toString());
            WatchdogReport slept = reportOf(reports, WatchdogReport.Kind.LONG_WAIT, "sleeps holding a monitor");
            assertTrue(slept.detail().contains("parked outside Weft's waits"), slept.detail());
            assertTrue(stackHas(slept, "sleep"), slept.toString());
            WatchdogReport blocked = reportOf(reports, WatchdogReport.Kind.LONG_WAIT, "monitor contender");
            assertTrue(blocked.detail().contains("blocked on a monitor"), blocked.detail());
        }
    }

    /** The failure kind no job should ever catch. */
    static final class InjectedError extends Error {
        private static final long serialVersionUID = 1L;

        InjectedError(String message) {
            super(message);
        }
    }
}
