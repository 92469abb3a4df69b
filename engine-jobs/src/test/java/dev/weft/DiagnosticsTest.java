package dev.weft;

import static dev.weft.TestSupport.await;
import static dev.weft.TestSupport.eventually;
import static dev.weft.TestSupport.join;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Traces, JFR events, the watchdog, the wait-cycle check, deterministic mode, the missing-flag error. */
@Timeout(120)
class DiagnosticsTest {
    private static final int STOLEN_JOBS = 20;

    @Test
    @SuppressWarnings("unchecked")
    void traceExportIsValidTraceEventJsonWithBalancedSlicesPerWorker() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            JobTrace trace = jobs.startTrace(100_000);
            Counter frame = new Counter("frame");
            for (int f = 0; f < 20; f++) {
                jobs.parallelFor(Priority.FRAME, 0, 10_000, 500, (s, e, w) -> { }, frame);
                Counter gate = new Counter("gate");
                gate.add(1);
                jobs.run(Priority.FRAME, "waiter", gate::await, frame);  // parks, resumes maybe elsewhere
                eventually("the waiter parked", () -> jobs.stats().fibersParked() == 1);
                jobs.run(Priority.FRAME, "opener", gate::decrement, frame);
                await(frame);
            }
            trace.stop();
            StringWriter out = new StringWriter();
            trace.writeChromeTrace(out);
            Map<String, Object> root = new com.fasterxml.jackson.databind.ObjectMapper().readValue(out.toString(), Map.class);
            List<Map<String, Object>> events = (List<Map<String, Object>>) root.get("traceEvents");
            Map<Double, Integer> depth = new HashMap<>();
            List<String> trackNames = new ArrayList<>();
            int slices = 0;
            for (Map<String, Object> e : events) {
                String ph = (String) e.get("ph");
                double tid = ((Number) e.get("tid")).doubleValue();
                switch (ph) {
                    case "M" -> trackNames.add((String) ((Map<String, Object>) e.get("args")).get("name"));
                    case "B" -> {
                        depth.merge(tid, 1, Integer::sum);
                        slices++;
                    }
                    case "E" -> {
                        int d = depth.merge(tid, -1, Integer::sum);
                        assertTrue(d >= 0, "an end without a begin on track " + tid);
                    }
                    case "i" -> { }
                    default -> throw new AssertionError("unexpected phase " + ph);
                }
            }
            assertEquals(List.of("worker 0", "worker 1", "main thread"), trackNames);
            depth.forEach((tid, d) -> assertEquals(0, d, "unbalanced track " + tid));
            assertTrue(slices >= 20 * 3, "slices recorded: " + slices);
            assertTrue(out.toString().contains("(resumed)"), "a parked job's resumption is a slice");
            assertEquals(0, trace.droppedEvents());
        }
    }

    @Test
    void jfrRecordingShowsJobParkAndStealEvents(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("weft.jfr");
        Path stealFile = dir.resolve("steals.jfr");
        AtomicInteger victim = new AtomicInteger(-1);
        Set<Integer> childWorkers = ConcurrentHashMap.newKeySet();
        long steals;
        try (JobSystem jobs = TestSupport.system(2)) {
            try (Recording r = new Recording()) {
                r.enable("weft.Job");
                r.enable("weft.FiberPark");
                r.enable("weft.Steal");
                r.start();
                eventually("JFR listener saw the recording", () -> JfrEvents.active);
                for (int i = 0; i < 50; i++) {
                    Counter gate = new Counter("gate");
                    gate.add(1);
                    Counter c = new Counter();
                    jobs.run(Priority.NORMAL, "jfr-waiter", gate::await, c);
                    eventually("the waiter parked", () -> jobs.stats().fibersParked() == 1);
                    jobs.parallelFor(Priority.NORMAL, 0, 1000, 10, (s, e, w) -> { }, c);
                    jobs.run(Priority.NORMAL, "jfr-opener", gate::decrement, c);
                    await(c);
                }
                r.stop();
                r.dump(file);
            }
            // Steals made certain, in a recording of their own: a job pushes its children onto its own
            // worker's deque and then spins, holding that worker, until they have all run. Its worker never
            // pops them, so the other worker steals each one (alone or in a stealMore batch: one event each).
            try (Recording r = new Recording()) {
                r.enable("weft.Steal");
                r.start();
                eventually("JFR listener saw the steal recording", () -> JfrEvents.active);
                // Counted from inside the victim: submitted from outside, the victim itself may be stolen by
                // the other worker on its way in, and that steal is not one of the children's.
                AtomicLong stealsBefore = new AtomicLong();
                Counter c = new Counter("steal phase");
                jobs.run(Priority.NORMAL, "jfr-victim", () -> {
                    stealsBefore.set(jobs.stats().steals());
                    victim.set(Jobs.workerIndex());
                    AtomicInteger ran = new AtomicInteger();
                    for (int i = 0; i < STOLEN_JOBS; i++) {
                        jobs.run(Priority.NORMAL, "jfr-stolen", () -> {
                            childWorkers.add(Jobs.workerIndex());
                            ran.incrementAndGet();
                        }, c);
                    }
                    long end = System.nanoTime() + TestSupport.LONG.toNanos();      // hang guard only
                    while (ran.get() < STOLEN_JOBS && System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                }, c);
                await(c);
                steals = jobs.stats().steals() - stealsBefore.get();
                r.stop();
                r.dump(stealFile);
            }
        }
        Map<String, Integer> counts = count(file);
        assertTrue(counts.getOrDefault("weft.Job", 0) >= 100, counts.toString());
        assertTrue(counts.getOrDefault("weft.FiberPark", 0) >= 1, counts.toString());

        int thief = 1 - victim.get();
        assertEquals(Set.of(thief), childWorkers, "only the other worker ran the children: they were stolen");
        assertEquals(STOLEN_JOBS, steals, "the stats count one steal per child");
        int byThief = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(stealFile)) {
            if (e.getEventType().getName().equals("weft.Steal")) {
                assertEquals(thief, e.getInt("thief"), "the Steal event names the thief");
                byThief++;
            }
        }
        // Not one event per steal: JFR here keeps 18-20 of the 20 (and in a recording that also holds the
        // park/resume rounds above, about 85% of the steals the stats count), so only presence is checked.
        assertTrue(byThief >= 1 && byThief <= STOLEN_JOBS, byThief + " Steal events for " + STOLEN_JOBS + " steals");
        eventually("listener saw the stop", () -> !JfrEvents.active);
    }

    /**
     * The settings file the docs point to ({@code engine-jobs/weft.jfc}) turns Weft's events on beside
     * the JDK's default ones, while the default settings alone record none of them (they are opt-in).
     */
    @Test
    void theShippedWeftJfcTurnsTheEventsOn(@TempDir Path dir) throws Exception {
        Path withWeft = dir.resolve("with-weft.jfr");
        Path defaultOnly = dir.resolve("default-only.jfr");
        jdk.jfr.Configuration weft = jdk.jfr.Configuration.create(Path.of("weft.jfc"));   // the module's directory
        try (JobSystem jobs = TestSupport.system(2)) {
            for (Path file : List.of(withWeft, defaultOnly)) {
                Map<String, String> settings = new HashMap<>(jdk.jfr.Configuration.getConfiguration("default").getSettings());
                if (file == withWeft) {
                    settings.putAll(weft.getSettings());   // as settings=default,settings=weft.jfc does
                }
                try (Recording r = new Recording(settings)) {
                    r.start();
                    eventually("JFR listener saw the recording", () -> JfrEvents.active);
                    Counter c = new Counter("jfc");
                    for (int i = 0; i < 100; i++) {
                        jobs.run(Priority.NORMAL, "jfc-job", () -> { }, c);
                    }
                    await(c);
                    r.stop();
                    r.dump(file);
                }
                eventually("listener saw the stop", () -> !JfrEvents.active);
            }
        }
        assertTrue(count(withWeft).getOrDefault("weft.Job", 0) >= 100, count(withWeft).toString());
        Map<String, Integer> plain = count(defaultOnly);
        assertEquals(0, plain.getOrDefault("weft.Job", 0) + plain.getOrDefault("weft.Steal", 0)
                + plain.getOrDefault("weft.FiberPark", 0), plain.toString());
        assertTrue(plain.getOrDefault("jdk.JVMInformation", 0) > 0, "the default settings did record: " + plain);
    }

    private static Map<String, Integer> count(Path jfr) throws java.io.IOException {
        Map<String, Integer> counts = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            counts.merge(e.getEventType().getName(), 1, Integer::sum);
        }
        return counts;
    }

    /**
     * A program that never binds a main thread (the assets README's loop, run as written) waits for its
     * uploads for ever: main-thread jobs run only on the thread that called bindMainThread or
     * runMainThreadJobs. Nothing said so: the watchdog looks at fibers, and a timed join said only that the
     * job did not finish (a probe). Both now name the cause and the call to make.
     */
    @Test
    void mainThreadJobsNobodyRunsAreReportedAndNamedInATimeout() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        try (JobSystem jobs = JobSystem.builder().workers(2).watchdog(Duration.ofMillis(50), reports::add).build()) {
            JobHandle<Integer> upload = jobs.onMainThread("upload rock", () -> 1);
            java.util.concurrent.TimeoutException t = org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.TimeoutException.class,
                    () -> upload.join(Duration.ofMillis(20)));
            assertTrue(t.getMessage().contains("bindMainThread"), t.getMessage());
            long end = System.nanoTime() + TestSupport.LONG.toNanos();
            while (!has(reports, WatchdogReport.Kind.LONG_WAIT, "main-thread jobs") && System.nanoTime() < end) {
                Thread.sleep(5);
            }
            WatchdogReport r = find(reports, WatchdogReport.Kind.LONG_WAIT, "main-thread jobs");
            assertTrue(r.detail().contains("no thread runs them") && r.detail().contains("bindMainThread"), r.detail());
            jobs.bindMainThread();
            assertEquals(1, upload.join());                  // a join on the main thread runs it
        }
    }

    /**
     * A FRAME job the main thread runs as help while it waits (both workers busy) and that spins: the frame
     * is stuck in it, yet the watchdog, which looked only at fibers and workers, said nothing (a probe).
     */
    @Test
    void watchdogNamesAJobThatHoldsTheWaitingMainThread() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean release = new java.util.concurrent.atomic.AtomicBoolean();
        try (JobSystem jobs = JobSystem.builder().workers(2).watchdog(Duration.ofMillis(100), reports::add).build()) {
            Counter hogs = new Counter("hogs");
            CountDownLatch bothBusy = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                jobs.run(Priority.NORMAL, "hog " + i, () -> {
                    bothBusy.countDown();
                    while (!release.get()) {
                        Thread.onSpinWait();
                    }
                }, hogs);
            }
            assertTrue(bothBusy.await(TestSupport.LONG.toSeconds(), TimeUnit.SECONDS));
            Counter frame = new Counter("frame");
            Thread mainThread = Thread.currentThread();
            long[] ranOn = new long[1];
            jobs.run(Priority.FRAME, "stuck skinning", () -> {
                ranOn[0] = Thread.currentThread() == mainThread ? 1 : 2;
                long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (!has(reports, WatchdogReport.Kind.BLOCKED_WORKER, "stuck skinning") && System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            }, frame);
            frame.await();                                   // runs the FRAME job here: both workers are busy
            release.set(true);
            TestSupport.await(hogs);
            assertEquals(1, ranOn[0], "the waiting thread ran the FRAME job");
            WatchdogReport r = find(reports, WatchdogReport.Kind.BLOCKED_WORKER, "stuck skinning");
            assertTrue(r.detail().contains(mainThread.getName()) && r.detail().contains("waiting thread"), r.detail());
        } finally {
            release.set(true);
        }
    }

    @Test
    void watchdogNamesALongWaitABlockedWorkerAndAWaitCycle() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        JobSystem jobs = JobSystem.builder().workers(2).watchdog(Duration.ofMillis(100), reports::add).build();
        try {
            Counter never = new Counter("level streamed");
            never.add(1);
            Counter c = new Counter();
            jobs.run(Priority.NORMAL, "waits for streaming", () -> waitingOnPurpose(never), c);
            // A job that blocks its carrier: a busy loop the fiber cannot unmount from. It holds its worker
            // until the watchdog has named it (at most the test timeout), so a slow machine cannot let it
            // end before the watchdog's samples span the threshold.
            jobs.run(Priority.NORMAL, "blocks its worker", () -> {
                long end = System.nanoTime() + TestSupport.LONG.toNanos();
                while (!has(reports, WatchdogReport.Kind.BLOCKED_WORKER, "blocks its worker")
                        && System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            }, c);
            // A deadlock: a waits on b's counter, b waits on a's.
            // Both wait behind a gate opened after both are submitted: job a could otherwise start before
            // job b is submitted, find "b done" still at 0 and return (that flaked on CI).
            Counter aDone = new Counter("a done");
            Counter bDone = new Counter("b done");
            Counter bothSubmitted = new Counter("both submitted");
            bothSubmitted.add(1);
            jobs.run(Priority.NORMAL, "job a", () -> {
                bothSubmitted.await();
                bDone.await();
            }, aDone);
            jobs.run(Priority.NORMAL, "job b", () -> {
                bothSubmitted.await();
                aDone.await();
            }, bDone);
            // Both parked on the gate before it opens: job b would otherwise run a queued job a inline, whose
            // wait on b's counter (b is below it on the fiber) is refused as a wait on its own stack.
            eventually("both jobs parked on the gate", () -> jobs.schedulerForTests().fibers.all().stream()
                    .filter(f -> f.waitNode != null && f.waitNode.counter == bothSubmitted).count() == 2);
            bothSubmitted.decrement();
            eventually(() -> "three kinds reported; reported so far: "
                    + reports.stream().map(r -> r.kind() + " '" + r.jobName() + "'").toList() + "; stats " + jobs.stats()
                    + "; fibers " + TestSupport.fiberStates(jobs) + "; watchdog thread " + watchdogThreadState(), () -> kinds(reports).size() == 3
                    && has(reports, WatchdogReport.Kind.LONG_WAIT, "waits for streaming")
                    && has(reports, WatchdogReport.Kind.BLOCKED_WORKER, "blocks its worker"));
            WatchdogReport wait = find(reports, WatchdogReport.Kind.LONG_WAIT, "waits for streaming");
            assertTrue(wait.detail().contains("level streamed"), wait.detail());
            assertTrue(wait.stack().stream().anyMatch(f -> f.getMethodName().equals("waitingOnPurpose")),
                    "the parked job's own frames are in the report");
            WatchdogReport blocked = find(reports, WatchdogReport.Kind.BLOCKED_WORKER, "blocks its worker");
            assertTrue(blocked.detail().contains("without parking"), blocked.detail());
            WatchdogReport cycle = reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.WAIT_CYCLE)
                    .findFirst().orElseThrow();
            String cycleText = cycle.cycle().toString();
            assertTrue(cycleText.contains("job a") && cycleText.contains("job b"), cycleText);
            assertTrue(cycle.millis() >= 100, "a cycle is reported after its oldest wait passed the threshold"
                    + " (100 ms), and says how long: " + cycle.millis());
            assertEquals(1, jobs.findWaitCycles().size());
            never.decrement();
        } finally {
            jobs.shutdownNow();                                        // breaks the deadlock by cancellation
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated after shutdownNow");
        }
    }


    /** Two jobs that join each other's handles (a deadlock) are a cycle, named by the handles' joins. */
    @Test
    @Timeout(60)
    void twoJobsJoiningEachOthersHandlesAreFoundAsACycle() throws Exception {
        JobSystem jobs = JobSystem.builder().name("handle-cycle").workers(2).build();
        try {
            // Both jobs start before either joins: a job still queued on the joiner's own deque would be
            // run inline by the join, which then refuses the self-join instead of waiting.
            Counter bothStarted = new Counter("both started");
            bothStarted.add(2);
            AtomicReferenceArray<JobHandle<Integer>> handles = new AtomicReferenceArray<>(2);
            for (int i = 0; i < 2; i++) {
                int other = 1 - i;
                handles.set(i, jobs.submit(Priority.NORMAL, i == 0 ? "job a" : "job b", () -> {
                    bothStarted.decrement();
                    bothStarted.await();
                    while (handles.get(other) == null) {
                        Thread.onSpinWait();
                    }
                    return handles.get(other).join() + 1;
                }));
            }
            eventually(() -> "a cycle through the two handles; fibers " + TestSupport.fiberStates(jobs),
                    () -> !jobs.findWaitCycles().isEmpty());
            List<WaitCycle> cycles = jobs.findWaitCycles();
            assertEquals(1, cycles.size(), cycles.toString());
            String text = cycles.toString();
            assertTrue(text.contains("job a") && text.contains("job b") && text.contains("join of 'job a'")
                    && text.contains("join of 'job b'"), text);
        } finally {
            jobs.shutdownNow();                                        // cancels both waits
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated after shutdownNow");
        }
    }

    /** The watchdog thread's state and stack, first in a failure message (CI logs cut long dumps). */
    private static String watchdogThreadState() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().endsWith("-watchdog"))
                .map(e -> e.getKey().getName() + " " + e.getKey().getState() + " "
                        + java.util.Arrays.toString(e.getValue()))
                .toList().toString();
    }

    private static boolean has(List<WatchdogReport> rs, WatchdogReport.Kind k, String job) {
        return rs.stream().anyMatch(r -> r.kind() == k && r.jobName().equals(job));
    }

    private static void waitingOnPurpose(Counter c) {
        c.await();
    }

    private static List<WatchdogReport.Kind> kinds(List<WatchdogReport> rs) {
        return rs.stream().map(WatchdogReport::kind).distinct().toList();
    }

    private static WatchdogReport find(List<WatchdogReport> rs, WatchdogReport.Kind k, String job) {
        return rs.stream().filter(r -> r.kind() == k && r.jobName().equals(job)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + k + " report for '" + job + "' in " + rs));
    }

    @Test
    void deterministicModeReplaysTheSameOrderForTheSameSeed() {
        List<Integer> a = runSeeded(42);
        List<Integer> b = runSeeded(42);
        List<Integer> c = runSeeded(7);
        assertEquals(a, b, "same seed, same order");
        assertNotEquals(a, c, "another seed explores another order");
        List<Integer> sorted = new ArrayList<>(a);
        Collections.sort(sorted);
        assertEquals(200, sorted.size());
    }

    private static List<Integer> runSeeded(long seed) {
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        try (JobSystem jobs = JobSystem.builder().deterministic(seed).build()) {
            assertEquals(1, jobs.workerCount());
            join(jobs.submit(() -> {
                Counter c = new Counter();
                for (int i = 0; i < 200; i++) {
                    int id = i;
                    jobs.run(() -> order.add(id), c);
                }
                c.await();
                return null;
            }));
        }
        return order;
    }

    @Test
    void withoutTheAddOpensFlagCreatingAJobSystemNamesTheFlag(@TempDir Path dir) throws Exception {
        String out = runInChildJvm(dir, "NoFlag", """
                public class NoFlag {
                    public static void main(String[] a) {
                        try {
                            dev.weft.JobSystem.create();
                            System.out.println("created");
                        } catch (IllegalStateException e) {
                            System.out.println(e.getMessage());
                        }
                    }
                }
                """);
        assertTrue(out.contains("--add-opens java.base/java.lang=ALL-UNNAMED"), out);
        assertFalse(out.contains("created"), out);
    }

    @Test
    void withObservationHooksCompiledOutJobsRunAndATraceIsRefusedNamingTheFlag(@TempDir Path dir) throws Exception {
        String out = runInChildJvm(dir, "NoHooks", """
                public class NoHooks {
                    public static void main(String[] a) {
                        try (dev.weft.JobSystem jobs = dev.weft.JobSystem.builder().workers(2).build()) {
                            dev.weft.Counter c = new dev.weft.Counter();
                            java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
                            for (int i = 0; i < 1000; i++) {
                                jobs.run(ran::incrementAndGet, c);
                            }
                            c.await();
                            System.out.println("ran " + ran.get());
                            try {
                                jobs.startTrace(100);
                                System.out.println("trace started");
                            } catch (IllegalStateException e) {
                                System.out.println(e.getMessage());
                            }
                        }
                    }
                }
                """, "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-Dweft.internal.observationHooks=false");
        assertTrue(out.contains("ran 1000"), out);
        assertTrue(out.contains("-Dweft.internal.observationHooks=false"), out);
        assertFalse(out.contains("trace started"), out);
    }

    /** Runs the single-file program {@code source} (class {@code className}) in a child JVM; its output. */
    private static String runInChildJvm(Path dir, String className, String source, String... jvmFlags) throws Exception {
        return ChildJvm.run(dir, className, source, jvmFlags).output();
    }
}
