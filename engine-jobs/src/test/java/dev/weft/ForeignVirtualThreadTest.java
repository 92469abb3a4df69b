package dev.weft;

import static dev.weft.TestSupport.LONG;
import static dev.weft.TestSupport.join;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.internal.FiberSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Virtual threads a job starts ({@code Thread.ofVirtual()}, {@code Thread.startVirtualThread},
 * {@code Executors.newVirtualThreadPerTaskExecutor()}) inherit the job's fiber as their scheduler (the JDK
 * takes the parent virtual thread's). They must not run on Weft's workers, and must go on running after
 * the job system has closed: a library's HTTP or logging thread started inside a job is not Weft's.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ForeignVirtualThreadTest {
    private static final String NAME = "fvt";

    private static JobSystem system() {
        return JobSystem.builder().name(NAME).workers(2).build();
    }

    /** Where the current thread runs, for the assertion message: {@code VirtualThread[#id]/runnable@carrier}. */
    private static String where() {
        return Thread.currentThread() + " carrier " + FiberSupport.currentCarrier();
    }

    private static boolean onWeftWorker() {
        return FiberSupport.currentCarrier() instanceof WorkerThread
                || Thread.currentThread().toString().contains(NAME + "-worker-");
    }

    private static void assertOffWeft(List<String> seen) {
        for (String s : seen) {
            assertFalse(s.startsWith("WEFT "), "ran on a Weft worker: " + s);
        }
    }

    private static void record(List<String> seen) {
        String s = where();
        synchronized (seen) {
            seen.add((onWeftWorker() ? "WEFT " : "") + s);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ofVirtual", "startVirtualThread", "factory"})
    void aVirtualThreadStartedInAJobRunsOffWeftsWorkers(String how) throws Exception {
        List<String> seen = new ArrayList<>();
        try (JobSystem jobs = system()) {
            join(jobs.submit(() -> {
                Runnable body = () -> {
                    record(seen);
                    try {
                        Thread.sleep(2);                // parks: its wake is handed to the fiber it inherited
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    record(seen);
                    Thread.yield();
                    record(seen);
                };
                Thread t = switch (how) {
                    case "ofVirtual" -> Thread.ofVirtual().start(body);
                    case "startVirtualThread" -> Thread.startVirtualThread(body);
                    default -> {
                        Thread u = Thread.ofVirtual().factory().newThread(body);
                        u.start();
                        yield u;
                    }
                };
                assertTrue(t.join(LONG), "the job's join of its virtual thread timed out");
                return null;
            }));
        }
        assertEquals(3, seen.size(), seen.toString());
        assertOffWeft(seen);
    }

    @Test
    void aVirtualThreadStartedBySuchAThreadRunsOffWeftsWorkersToo() throws Exception {
        List<String> seen = new ArrayList<>();
        try (JobSystem jobs = system()) {
            join(jobs.submit(() -> {
                Thread child = Thread.ofVirtual().start(() -> {
                    record(seen);
                    Thread grandchild = Thread.ofVirtual().start(() -> {
                        record(seen);
                        parkBriefly();
                        record(seen);
                    });
                    try {
                        assertTrue(grandchild.join(LONG));
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    record(seen);
                });
                assertTrue(child.join(LONG), "the job's join of its virtual thread timed out");
                return null;
            }));
        }
        assertEquals(4, seen.size(), seen.toString());
        assertOffWeft(seen);
    }

    private static void parkBriefly() {
        LockSupport.parkNanos(1_000_000);
    }

    @Test
    void aVirtualThreadSleepingPastCloseFinishesAfterIt() throws Exception {
        AtomicBoolean childRan = new AtomicBoolean();
        AtomicReference<String> afterClose = new AtomicReference<>();
        Thread t;
        try (JobSystem jobs = system()) {
            t = join(jobs.submit(() -> Thread.ofVirtual().name("sleeper").start(() -> {
                try {
                    Thread.sleep(300);                  // the job system closes meanwhile
                    afterClose.set(where());
                    // It starts a thread of its own after the close: that one inherits the same scheduler.
                    Thread child = Thread.ofVirtual().start(() -> childRan.set(true));
                    assertTrue(child.join(LONG));
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            })));
        }
        assertTrue(t.join(Duration.ofSeconds(10)),
                "the virtual thread a job started never finished after close(): " + t + " state " + t.getState());
        assertTrue(childRan.get(), "its child never ran");
        assertFalse(afterClose.get().contains(NAME + "-worker-"), afterClose.get());
    }

    @Test
    void aVirtualThreadBlockedOnAQueueAtCloseIsReleasedAfterIt() throws Exception {
        LinkedBlockingQueue<String> queue = new LinkedBlockingQueue<>();
        AtomicReference<String> got = new AtomicReference<>();
        Thread t;
        try (JobSystem jobs = system()) {
            t = join(jobs.submit(() -> Thread.ofVirtual().name("taker").start(() -> {
                try {
                    got.set(queue.take());
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            })));
            TestSupport.eventually("the taker parks", () -> t.getState() == Thread.State.WAITING);
        }
        putAfterClose(queue);
        assertTrue(t.join(Duration.ofSeconds(10)),
                "the virtual thread a job started never finished after close(): " + t + " state " + t.getState());
        assertEquals("after close", got.get());
    }

    private static void putAfterClose(LinkedBlockingQueue<String> queue) {
        try {
            queue.put("after close");                  // unparks the taker: the JDK hands its wake to its scheduler
        } catch (RuntimeException | InterruptedException e) {
            fail("waking a virtual thread a job started threw after close(): " + e, e);
        }
    }

    @Test
    void aVirtualThreadPerTaskExecutorInAJobRunsItsTasksOffWeftsWorkers() throws Exception {
        List<String> seen = new ArrayList<>();
        try (JobSystem jobs = system()) {
            int done = join(jobs.submit(() -> {
                List<Callable<Boolean>> tasks = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    tasks.add(() -> {
                        Thread.sleep(1);
                        record(seen);
                        return true;
                    });
                }
                int n = 0;
                try (ExecutorService io = Executors.newVirtualThreadPerTaskExecutor()) {
                    for (Future<Boolean> f : io.invokeAll(tasks)) {
                        n += f.get() ? 1 : 0;
                    }
                }
                return n;
            }));
            assertEquals(100, done);
        }
        assertEquals(100, seen.size());
        assertOffWeft(seen);
    }
}
