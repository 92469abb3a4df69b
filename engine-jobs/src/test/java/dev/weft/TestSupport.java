package dev.weft;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/** Shared test helpers: one timeout constant, system factories, waiting with a thread dump on hang. */
final class TestSupport {
    /** Every timeout in the tests scales from this (JSR166 TCK style). */
    static final Duration LONG = Duration.ofSeconds(Long.getLong("weft.test.timeoutSeconds", 30));

    /** True when the full stress sizes were asked for (-Dweft.stress=full). */
    static final boolean FULL = "full".equals(System.getProperty("weft.stress", "ci"));

    private TestSupport() {}

    static JobSystem system(int workers) {
        return JobSystem.builder().name("test" + workers).workers(workers).build();
    }

    /** Workers only: the waiting test thread runs no jobs (for tests of where and in which order workers run them). */
    static JobSystem workersOnly(int workers) {
        return JobSystem.builder().name("test" + workers).workers(workers).waitersHelp(false).build();
    }

    /** Waits for a condition, failing with a thread dump if it does not become true in time. */
    static void eventually(String what, BooleanSupplier condition) {
        eventually(() -> what, condition);
    }

    /** As above; {@code what} is built at the timeout, so it can show the state that was not reached. */
    static void eventually(java.util.function.Supplier<String> what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + LONG.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what.get() + "\n" + threadDump());
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** Awaits a counter with the long timeout; on hang fails with a thread dump. */
    static void await(Counter c) {
        if (!c.await(LONG)) {
            throw new AssertionError("counter " + c + " did not reach 0 within " + LONG + "\n" + threadDump());
        }
    }

    static <T> T join(JobHandle<T> h) {
        try {
            return h.join(LONG);
        } catch (TimeoutException e) {
            throw new AssertionError(h + " did not finish within " + LONG + "\n" + threadDump());
        }
    }

    static void closeWithin(JobSystem jobs) {
        jobs.shutdown();
        try {
            if (!jobs.awaitTermination(LONG)) {
                throw new AssertionError(jobs + " did not terminate within " + LONG + "\n" + threadDump());
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Each fiber's thread state, job and wait, read without suspending it (for failure messages). */
    static String fiberStates(JobSystem jobs) {
        return jobs.schedulerForTests().fibers.all().stream().map(f -> {
            JobNode j = f.currentJob;
            WaitNode n = f.waitNode;
            return f.thread.getName() + " " + f.thread.getState() + " job=" + (j != null ? j.name() : "-")
                    + " waits=" + (n != null ? n.counter + "/" + n.state() : "-");
        }).toList().toString();
    }

    static String threadDump() {
        StringBuilder sb = new StringBuilder("---- thread dump ----\n");
        for (ThreadInfo ti : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            sb.append(ti);
        }
        return sb.toString();
    }

    static void sleepMillis(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(ms);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
