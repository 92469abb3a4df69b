package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The uncaught-failure handler is user code, and a logger can be broken: whatever it throws is printed to
 * stderr, never thrown into the job path. Found by a probe on the public API: a handler that threw was
 * called a second time with its own exception, which then killed the job's fiber before the fiber went
 * back to its pool, and {@code close()} waited for that fiber forever; on a waiting main thread that ran
 * the failing job as help, the handler's exception came out of {@code Counter.await()}.
 */
@Timeout(60)
class ThrowingFailureHandlerTest {
    private static final int FAILING_JOBS = 200;

    @ParameterizedTest(name = "the handler throws {0}")
    @ValueSource(strings = {"IllegalStateException", "AssertionError"})
    void aHandlerThatThrowsIsCalledOnceAndCloseStillTerminates(String thrown) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String stderr = capturingStderr(() -> {
            JobSystem jobs = JobSystem.builder().name("broken-logger").workers(2)
                    .onUncaughtFailure((job, failure) -> {
                        calls.incrementAndGet();
                        throw brokenLogger(thrown);
                    }).build();
            Counter fine = new Counter("fine");
            for (int i = 0; i < FAILING_JOBS; i++) {
                jobs.run(() -> {
                    throw new IllegalArgumentException("fails on purpose");
                });
                jobs.run(Priority.NORMAL, "fine", () -> { }, fine);   // the workers keep running jobs
            }
            TestSupport.await(fine);
            TestSupport.eventually(() -> "every failure handed to the handler: " + calls.get(),
                    () -> calls.get() == FAILING_JOBS);
            jobs.shutdown();
            boolean terminated = jobs.awaitTermination(Duration.ofSeconds(10));
            assertTrue(terminated, "terminated after shutdown: " + jobs.stats());
            assertEquals(0, jobs.stats().fibersAlive(), "no fiber left behind: " + jobs.stats());
        });
        assertEquals(FAILING_JOBS, calls.get(), "the handler is called once per failure, never with its own");
        assertTrue(stderr.contains("the uncaught-failure handler threw"), "reported on stderr:\n" + head(stderr));
        assertTrue(stderr.contains("fails on purpose") && stderr.contains("logger is broken"),
                "both the job's failure and the handler's are printed:\n" + head(stderr));
    }

    /** A waiting main thread helps with queued FRAME jobs; one fails and its handler throws. */
    @Test
    void aWaitingThreadThatRanTheFailingJobAsHelpDoesNotThrowTheHandlersException() throws Exception {
        capturingStderr(() -> {
            try (JobSystem jobs = JobSystem.builder().name("broken-logger-help").workers(1)
                    .onUncaughtFailure((job, failure) -> {
                        throw new IllegalStateException("logger is broken");
                    }).build()) {
                Counter waitedOn = new Counter("waited on");
                CountDownLatch release = new CountDownLatch(1);
                jobs.run(Priority.NORMAL, "holds the only worker", release::await, waitedOn);
                for (int i = 0; i < 20; i++) {   // FRAME jobs nobody waits for: the waiting thread may run them
                    jobs.run(Priority.FRAME, "fails", () -> {
                        throw new IllegalArgumentException("fails on purpose");
                    }, null);
                }
                Thread releaser = Thread.ofPlatform().start(() -> {
                    TestSupport.sleepMillis(300);
                    release.countDown();
                });
                waitedOn.await();                // helps (waitersHelp is on by default); must not throw
                releaser.join();
                assertEquals(0, waitedOn.value());
            }
        });
    }

    private static RuntimeException brokenLogger(String kind) {
        if (kind.equals("AssertionError")) {
            throw new AssertionError("logger is broken");
        }
        return new IllegalStateException("logger is broken");
    }

    private static String capturingStderr(ThrowingRunnable body) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static String head(String s) {
        return s.length() > 2_000 ? s.substring(0, 2_000) + "..." : s;
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
