package dev.weft;

import static dev.weft.TestSupport.LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parked jobs are visible in an ordinary thread dump — the "what none of them has" promise of ANCHORS.md.
 *
 * <p>What each dump shows on JDK 25, with one job parked in a Counter wait ({@code waitingOnPurpose})
 * and one busy on a worker ({@code spinOnPurpose}):
 * <ul>
 *   <li>{@code jcmd <pid> Thread.dump_to_file -format=json <file>} and, in process,
 *       {@code HotSpotDiagnosticMXBean.dumpThreads(file, JSON)}: both fibers, as virtual threads named
 *       "&lt;system&gt;-fiber-N" with their job's frames; the parked one WAITING with its Counter as
 *       {@code parkBlocker}, the busy one RUNNABLE with {@code carrier} = the tid of its worker thread;</li>
 *   <li>{@code Thread.getAllStackTraces()} and the ThreadMXBean ({@code jstack}-style, and so
 *       {@link TestSupport#threadDump()}): platform threads only. No fiber appears, parked or running;
 *       the busy worker shows only carrier frames ({@code Continuation.run} under {@code Worker.mount}),
 *       never the job's. Holding the fiber's Thread object, {@code getStackTrace()} does give the job's
 *       frames (the watchdog does that; {@link FiberDumps} too).</li>
 * </ul>
 */
@Timeout(120)
class ThreadDumpTest {
    private JobSystem jobs;
    private final Counter never = new Counter("asset that never arrives");
    private final AtomicBoolean stop = new AtomicBoolean();

    static void waitingOnPurpose(Counter c) {
        c.await();
    }

    static void spinOnPurpose(AtomicBoolean stop) {
        while (!stop.get()) {
            Thread.onSpinWait();
        }
    }

    @BeforeEach
    void parkOneJobAndKeepOneBusy() {
        jobs = JobSystem.builder().name("dumped").workers(2).build();
        never.add(1);
        jobs.run(Priority.NORMAL, "parked job", () -> waitingOnPurpose(never), null);
        Counter busy = new Counter("busy started");
        busy.add(1);
        jobs.run(Priority.NORMAL, "busy job", () -> {
            busy.decrement();
            spinOnPurpose(stop);
        }, null);
        TestSupport.await(busy);
        // Not just fibersParked() == 1: that count rises at beginWait, before the fiber has unmounted, and the
        // busy job counts down before it enters spinOnPurpose. The dumps below are taken once both fibers are
        // where they stay until release(): one WAITING in waitingOnPurpose, one RUNNABLE in spinOnPurpose.
        TestSupport.eventually("one fiber parked in waitingOnPurpose and one running spinOnPurpose",
                () -> fiberIn("waitingOnPurpose", Thread.State.WAITING) && fiberIn("spinOnPurpose", Thread.State.RUNNABLE));
    }

    private boolean fiberIn(String method, Thread.State state) {
        for (Fiber f : jobs.schedulerForTests().fibers.all()) {
            if (f.thread.getState() == state
                    && Arrays.stream(f.thread.getStackTrace()).anyMatch(e -> e.getMethodName().equals(method))) {
                return true;
            }
        }
        return false;
    }

    @AfterEach
    void release() {
        stop.set(true);
        never.decrement();
        TestSupport.closeWithin(jobs);
    }

    @Test
    void jcmdThreadDumpShowsTheParkedJobWithItsStack(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("threads.json");
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        assertTrue(Files.isExecutable(jcmd), jcmd + " (the test JVM's own JDK)");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(ProcessHandle.current().pid()),
                "Thread.dump_to_file", "-format=json", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(LONG.toSeconds(), TimeUnit.SECONDS), "jcmd did not finish");
        assertEquals(0, p.exitValue(), out);
        checkDump(Files.readString(file));
    }

    @Test
    void theSameDumpComesInProcessFromTheHotSpotDiagnosticMXBean(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("threads.json");
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
        checkDump(Files.readString(file));
    }

    private void checkDump(String json) {
        List<Map<String, Object>> threads = threads(readJson(json));
        Map<String, Object> parked = threadWhoseStackHas(threads, "waitingOnPurpose");
        assertNotNull(parked, "no thread in the dump is parked in waitingOnPurpose:\n" + json);
        assertEquals(Boolean.TRUE, parked.get("virtual"));
        assertTrue(((String) parked.get("name")).startsWith("dumped-fiber-"), parked.toString());
        assertEquals("WAITING", parked.get("state"));
        assertTrue(stack(parked).stream().anyMatch(f -> f.startsWith("dev.weft.Counter.await(")), stack(parked).toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> blocker = (Map<String, Object>) parked.get("parkBlocker");
        assertNotNull(blocker, "a parked fiber names what it parks on");
        assertTrue(((String) blocker.get("object")).startsWith("dev.weft.Counter@"), blocker.toString());

        Map<String, Object> busy = threadWhoseStackHas(threads, "spinOnPurpose");
        assertNotNull(busy, "no thread in the dump runs spinOnPurpose");
        assertEquals(Boolean.TRUE, busy.get("virtual"));
        assertEquals("RUNNABLE", busy.get("state"));
        Object carrierTid = busy.get("carrier");
        assertNotNull(carrierTid, "a mounted fiber names its carrier: " + busy);
        Map<String, Object> carrier = threads.stream().filter(t -> carrierTid.equals(t.get("tid"))).findFirst().orElseThrow();
        assertTrue(((String) carrier.get("name")).startsWith("dumped-worker-"), carrier.toString());
    }

    @Test
    void threadGetAllStackTracesListsNoFiberAndTheCarrierHidesTheJobsFrames() {
        Map<Thread, StackTraceElement[]> all = Thread.getAllStackTraces();
        assertTrue(all.keySet().stream().noneMatch(Thread::isVirtual), "getAllStackTraces lists virtual threads");
        assertTrue(all.keySet().stream().noneMatch(t -> t.getName().startsWith("dumped-fiber-")));
        assertFalse(all.values().stream().flatMap(Arrays::stream)
                        .anyMatch(e -> e.getMethodName().equals("waitingOnPurpose") || e.getMethodName().equals("spinOnPurpose")),
                "no platform thread's trace shows a job's frames");
        List<StackTraceElement[]> workers = all.entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("dumped-worker-")).map(Map.Entry::getValue).toList();
        assertEquals(2, workers.size());
        assertTrue(workers.stream().anyMatch(s -> Arrays.stream(s).anyMatch(e -> e.getMethodName().equals("mount"))),
                "the busy worker shows only that it mounted a fiber");
        ThreadInfo[] mx = ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
        assertTrue(Arrays.stream(mx).noneMatch(i -> i.getThreadName().startsWith("dumped-fiber-")),
                "ThreadMXBean (jstack-style dumps, TestSupport.threadDump) has no fibers either");

        // With the Thread object in hand (the watchdog, FiberDumps), the job's frames are there.
        List<String> fiberStacks = new ArrayList<>();
        for (Fiber f : jobs.schedulerForTests().fibers.all()) {
            for (StackTraceElement e : f.thread.getStackTrace()) {
                fiberStacks.add(e.getMethodName());
            }
        }
        assertTrue(fiberStacks.contains("waitingOnPurpose") && fiberStacks.contains("spinOnPurpose"), fiberStacks.toString());
        assertTrue(FiberDumps.of(jobs).contains("waitingOnPurpose"));
    }

    private static Object readJson(String json) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readValue(json, Object.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError("the thread dump is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> threads(Object dump) {
        List<Map<String, Object>> threads = new ArrayList<>();
        Map<String, Object> root = (Map<String, Object>) ((Map<String, Object>) dump).get("threadDump");
        for (Object c : (List<Object>) root.get("threadContainers")) {
            for (Object t : (List<Object>) ((Map<String, Object>) c).get("threads")) {
                threads.add((Map<String, Object>) t);
            }
        }
        return threads;
    }

    @SuppressWarnings("unchecked")
    private static List<String> stack(Map<String, Object> thread) {
        return (List<String>) (List<?>) thread.getOrDefault("stack", List.of());
    }

    private static Map<String, Object> threadWhoseStackHas(List<Map<String, Object>> threads, String method) {
        return threads.stream().filter(t -> stack(t).stream().anyMatch(f -> f.contains("." + method + "(")))
                .findFirst().orElse(null);
    }
}
