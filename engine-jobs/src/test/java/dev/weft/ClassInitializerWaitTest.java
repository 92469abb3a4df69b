package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job whose fiber waits inside a static initializer cannot unmount (the JDK's class initialization has a
 * native frame): the wait parks the carrier and blocks the worker. The watchdog's report must say so and
 * name the class, not advise Jobs.blocking as for a blocking call.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClassInitializerWaitTest {
    /** What {@link WaitsInItsInitializer}'s static initializer waits on; the test releases it. */
    static final Counter GATE = new Counter("gate");

    /** Initialised only by the job below, on its fiber; its initializer waits until the test lets it go. */
    static final class WaitsInItsInitializer {
        static final int VALUE;

        static {
            GATE.await();
            VALUE = 42;
        }
    }

    @Test
    void aBlockedWorkerPinnedInAClassInitializerIsReportedAsSuch() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        String initializer = WaitsInItsInitializer.class.getName();
        GATE.add(1);
        try (JobSystem jobs = JobSystem.builder().workers(2).watchdog(Duration.ofMillis(100), reports::add).build()) {
            JobHandle<Integer> init = jobs.submit(Priority.NORMAL, "initialises a class",
                    () -> WaitsInItsInitializer.VALUE);
            try {
                TestSupport.eventually(() -> "BLOCKED_WORKER and LONG_WAIT reports for the job; so far " + reports,
                        () -> reported(reports, WatchdogReport.Kind.BLOCKED_WORKER)
                                && reported(reports, WatchdogReport.Kind.LONG_WAIT));
                // The other worker still runs jobs meanwhile.
                assertEquals(7, TestSupport.join(jobs.submit(() -> 7)));
            } finally {
                GATE.decrement();                            // the initializer goes on, the worker with it
            }
            assertEquals(42, TestSupport.join(init));
            WatchdogReport blocked = reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.BLOCKED_WORKER
                    && r.jobName().equals("initialises a class")).findFirst().orElseThrow();
            assertTrue(blocked.detail().contains("pinned inside the class initializer of " + initializer),
                    blocked.detail());
            assertTrue(blocked.detail().contains("Move the wait out of the static initializer"), blocked.detail());
            assertTrue(!blocked.detail().contains("Jobs.blocking"), "advice for a blocking call: " + blocked.detail());
            WatchdogReport wait = reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.LONG_WAIT
                    && r.jobName().equals("initialises a class")).findFirst().orElseThrow();
            assertTrue(wait.detail().contains("pinned inside the class initializer of " + initializer), wait.detail());
            assertTrue(blocked.stack().stream().anyMatch(f -> f.getMethodName().equals("<clinit>")
                    && f.getClassName().equals(initializer)), "the initializer's frame is in the report's stack");
        }
    }

    private static boolean reported(List<WatchdogReport> reports, WatchdogReport.Kind kind) {
        return reports.stream().anyMatch(r -> r.kind() == kind && r.jobName().equals("initialises a class"));
    }

    /** The innermost initializer on the stack is named; a stack with none gets the blocking-call advice. */
    @Test
    void theInnermostClassInitializerOnAStackIsNamed() {
        assertEquals(null, Watchdog.classInitializerOn(List.of(new StackTraceElement("a.B", "run", "B.java", 1),
                new StackTraceElement("a.C", "<init>", "C.java", 2))));
        assertEquals("a.Inner", Watchdog.classInitializerOn(List.of(new StackTraceElement("a.B", "await", null, 1),
                new StackTraceElement("a.Inner", "<clinit>", null, 2),
                new StackTraceElement("a.Outer", "<clinit>", null, 3))));
    }
}
