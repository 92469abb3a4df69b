package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exceptions a job may throw that are awkward to describe: a cause chain that loops, a message that
 * cannot be built, and a failure on each of a million indices. Each once hung a waiter or a worker, or
 * held hundreds of megabytes; the timeouts only turn a hang into a failure.
 */
class HostileExceptionTest {
    private static final Duration HANG = Duration.ofSeconds(30);

    /** a's cause is b and b's cause is a, as some libraries build them. */
    private static RuntimeException loopingChain() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        return a;
    }

    /** A lazily formatted message with a bug: describing it throws. */
    static final class UnprintableException extends RuntimeException {
        @Override
        public String getMessage() {
            throw new NullPointerException("the message's own bug");
        }
    }

    private static JobSystem system(int workers, ConcurrentLinkedQueue<Throwable> uncaught) {
        return JobSystem.builder().workers(workers).onUncaughtFailure((job, t) -> uncaught.add(t)).build();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aCauseChainThatLoopsReachesTheWaiterAndFreesTheWorker(int workers) {
        ConcurrentLinkedQueue<Throwable> uncaught = new ConcurrentLinkedQueue<>();
        try (JobSystem jobs = system(workers, uncaught)) {
            Counter c = new Counter("looping");
            RuntimeException thrown = loopingChain();
            jobs.run(Priority.NORMAL, "loops", () -> { throw thrown; }, c);
            JobFailedException viaCounter = assertTimeoutPreemptively(HANG,
                    () -> assertThrows(JobFailedException.class, c::await));
            assertSame(thrown, viaCounter.getCause());

            JobHandle<Object> h = jobs.submit(() -> { throw loopingChain(); });
            JobFailedException viaHandle = assertTimeoutPreemptively(HANG,
                    () -> assertThrows(JobFailedException.class, h::join));
            assertTrue(viaHandle.getMessage().contains("java.lang.RuntimeException: a"), viaHandle.getMessage());
            assertEquals(7, assertTimeoutPreemptively(HANG, () -> jobs.submit(() -> 7).join()),
                    "the worker is free again");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aFailureWhoseMessageCannotBeBuiltStillCompletesItsCounterAndReachesTheWaiter(int workers) {
        ConcurrentLinkedQueue<Throwable> uncaught = new ConcurrentLinkedQueue<>();
        try (JobSystem jobs = system(workers, uncaught)) {
            Counter c = new Counter("unprintable");
            UnprintableException thrown = new UnprintableException();
            jobs.run(Priority.NORMAL, "load", () -> { throw thrown; }, c);
            JobFailedException f = assertTimeoutPreemptively(HANG,
                    () -> assertThrows(JobFailedException.class, c::await));
            assertSame(thrown, f.getCause());
            assertEquals(0, c.value());
            assertTrue(f.getMessage().contains(UnprintableException.class.getName() + " (its toString() threw "
                    + "java.lang.NullPointerException)"), f.getMessage());

            JobHandle<Object> h = jobs.submit(() -> { throw new UnprintableException(); });
            JobFailedException viaHandle = assertTimeoutPreemptively(HANG,
                    () -> assertThrows(JobFailedException.class, h::join));
            assertTrue(viaHandle.getCause() instanceof UnprintableException, "cause: " + viaHandle.getCause().getClass());
            assertTrue(uncaught.isEmpty(), "somebody waited for both: " + uncaught);
        }
    }

    /**
     * Describing the failure runs out of memory (here a getCause() that throws OutOfMemoryError, as any
     * allocation there may with the heap exhausted: OutOfMemoryTest does it for real). The Error escaped
     * the failure's recording: the counter recorded nothing, its waiter returned as if every job had
     * succeeded, and the fiber died of it. Now the counter records the preallocated stand-in.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aFailureThatCannotBeRecordedForLackOfMemoryStillReachesTheWaiter(int workers) throws Exception {
        JobSystem jobs = system(workers, new ConcurrentLinkedQueue<>());
        try {
            Counter c = new Counter("no room");
            jobs.run(Priority.NORMAL, "load", () -> {
                throw new RuntimeException("no room to describe it") {
                    @Override
                    public synchronized Throwable getCause() {
                        throw new OutOfMemoryError("Java heap space (simulated: describing the failure)");
                    }
                };
            }, c);
            JobFailedException f = assertTimeoutPreemptively(HANG,
                    () -> assertThrows(JobFailedException.class, c::await));
            assertEquals(0, c.value());
            assertTrue(c.failure() != null && c.failure().getCause() instanceof OutOfMemoryError,
                    "recorded: the stand-in, " + c.failure());
            assertTrue(f.getCause() instanceof OutOfMemoryError, "cause: " + f.getCause());
            assertEquals(7, assertTimeoutPreemptively(HANG, () -> jobs.submit(() -> 7).join()),
                    "the worker is free again");
            jobs.shutdown();
            assertTrue(jobs.awaitTermination(HANG), "no fiber died: close() would wait for it for ever");
        } finally {
            jobs.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aBodyThatFailsOnEveryIndexKeepsAHundredFailuresAndCountsTheRest(int workers) {
        int n = 20_000;
        try (JobSystem jobs = system(workers, new ConcurrentLinkedQueue<>())) {
            Counter c = new Counter("entities");
            jobs.parallelFor(Priority.NORMAL, 0, n, 1, (start, end, worker) -> {
                throw new IllegalStateException("entity " + start);
            }, c);
            JobFailedException f = assertTimeoutPreemptively(HANG,
                    () -> assertThrows(JobFailedException.class, c::await));
            int kept = f.getSuppressed().length;
            assertEquals(JobFailedException.MAX_KEPT_FAILURES, kept);
            int notKept = n - 1 - kept;
            assertEquals(notKept, f.failuresNotKept());
            assertTrue(f.getMessage().endsWith("(and " + notKept + " more failures of the same counter, not kept)"),
                    f.getMessage());
            JobFailedException again = assertThrows(JobFailedException.class, c::throwIfFailed);
            assertEquals(kept, again.getSuppressed().length);
            assertTrue(again.getMessage().contains("(and " + notKept + " more"), again.getMessage());
        }
    }
}
