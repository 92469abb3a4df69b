package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real OutOfMemoryError, in a child JVM with a 64 MB heap and 2 workers: a job fills the heap to the
 * last bytes and keeps it full for 1.5 s while other jobs of the same counter run, fail (the exception
 * they throw cannot even be allocated) and complete. The Error then came out of Weft's own code around the
 * jobs, not only out of their bodies: making the JobFailedException, the uncaught-failure handler's
 * report, a fiber's idle park (the JDK allocates to freeze its stack), the first steps of completing a
 * job. A worker thread died with it (its jobs stranded), fibers died (close() then waited for them for
 * ever), a failure was dropped unrecorded, and a job's counter stayed up (its waiter timed out).
 */
@Timeout(120)
class OutOfMemoryTest {

    /**
     * Child-program source of {@code static Object fillHeap()}: allocates until the heap is full to the last
     * bytes and returns what holds it all (shared by the child JVMs of the out-of-memory tests).
     */
    static final String FILL_HEAP = """
                static Object fillHeap() {
                    Object head = null;
                    for (int size = 1 << 20; size >= 16; size >>= 4) {
                        try {
                            for (;;) {
                                Object[] node = new Object[2];
                                node[0] = head;
                                node[1] = new byte[size];
                                head = node;
                            }
                        } catch (OutOfMemoryError e) {
                            // next, smaller
                        }
                    }
                    try {
                        for (;;) {
                            Object[] node = new Object[2];
                            node[0] = head;
                            head = node;
                        }
                    } catch (OutOfMemoryError e) {
                        // the heap is full to the last bytes
                    }
                    return head;
                }
            """;

    static final String CHILD = """
            import dev.weft.*;
            import java.time.Duration;
            import java.util.concurrent.atomic.AtomicInteger;
            import java.util.concurrent.atomic.AtomicReferenceArray;
            import java.util.concurrent.locks.LockSupport;

            public class OomEpisode {
            """ + FILL_HEAP + """
                static volatile Object hog;
                static volatile boolean fillerStarted, full, released;
                static final AtomicReferenceArray<Object> uncaught = new AtomicReferenceArray<>(64);
                static final AtomicInteger uncaughtCount = new AtomicInteger();

                public static void main(String[] args) {
                    try {
                        run();
                    } catch (Throwable t) {
                        System.out.println("RESULT mainThrew=" + t);
                        t.printStackTrace(System.out);
                        System.out.flush();
                        Runtime.getRuntime().halt(2);
                    }
                }

                static void run() throws Exception {
                    // A thread that dies (a worker, a fiber) is recorded here without allocating; printed at the end.
                    Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
                        int i = uncaughtCount.getAndIncrement();
                        if (2 * i + 1 < uncaught.length()) {
                            uncaught.set(2 * i, t);
                            uncaught.set(2 * i + 1, e);
                        }
                    });
                    JobSystem jobs = JobSystem.builder().workers(2).name("oom").build();
                    Thread releaser = new Thread(() -> {
                        while (!full) {
                            LockSupport.parkNanos(1_000_000L);
                        }
                        long end = System.nanoTime() + 1_500_000_000L;   // the heap stays full this long
                        while (System.nanoTime() < end) {
                            LockSupport.parkNanos(10_000_000L);
                        }
                        hog = null;
                        full = false;
                        released = true;
                    }, "releaser");
                    releaser.setDaemon(true);
                    releaser.start();

                    Counter episode = new Counter("episode");
                    jobs.run(Priority.NORMAL, "filler", () -> {
                        fillerStarted = true;
                        long until = System.nanoTime() + 300_000_000L;   // the main thread waits by then
                        while (System.nanoTime() < until) {
                            Thread.onSpinWait();       // not a park: the other worker's victims would take our carrier
                        }
                        hog = fillHeap();
                        full = true;
                    }, episode);
                    while (!fillerStarted) {
                        LockSupport.parkNanos(1_000_000L);
                    }
                    long deadline = System.nanoTime() + 5_000_000_000L;
                    for (int i = 0; i < 400; i++) {
                        boolean throwing = i % 2 == 0;
                        jobs.run(Priority.NORMAL, "victim", () -> {
                            while (!full && !released && System.nanoTime() < deadline) {
                                Thread.onSpinWait();
                            }
                            if (throwing && full) {
                                throw new IllegalStateException("victim failed while the heap was full");
                            }
                        }, episode);
                    }
                    String episodeAwait;
                    try {
                        episodeAwait = episode.await(Duration.ofSeconds(10)) ? "reached" : "timeout";
                    } catch (JobFailedException e) {
                        episodeAwait = "failed";
                    } catch (OutOfMemoryError e) {
                        episodeAwait = "oom";
                    }
                    releaser.join();
                    System.gc();
                    System.out.println("RESULT episodeAwait=" + episodeAwait);
                    System.out.println("RESULT episodeValue=" + episode.value());
                    System.out.println("RESULT episodeFailure=" + episode.failure());

                    JobSystemStats before = jobs.stats();
                    Counter after = new Counter("after");
                    for (int i = 0; i < 2000; i++) {
                        jobs.run(Priority.NORMAL, "after", () -> {
                            long end = System.nanoTime() + 50_000L;
                            while (System.nanoTime() < end) {
                                Thread.onSpinWait();
                            }
                        }, after);
                    }
                    String afterAwait;
                    try {
                        afterAwait = after.await(Duration.ofSeconds(10)) ? "reached" : "timeout";
                    } catch (JobFailedException e) {
                        afterAwait = "failed " + e;
                    }
                    System.out.println("RESULT afterAwait=" + afterAwait);
                    System.out.println("RESULT afterValue=" + after.value());
                    JobSystemStats now = jobs.stats();
                    for (int w = 0; w < now.workers().size(); w++) {
                        System.out.println("RESULT afterJobsOnWorker" + w + "="
                                + (now.workers().get(w).jobsRun() - before.workers().get(w).jobsRun()));
                    }
                    int workerThreads = 0;
                    for (Thread t : Thread.getAllStackTraces().keySet()) {
                        if (t.getName().startsWith("oom-worker-")) {
                            workerThreads++;
                        }
                    }
                    System.out.println("RESULT workerThreads=" + workerThreads);

                    Thread closer = new Thread(jobs::close, "closer");
                    closer.setDaemon(true);
                    closer.start();
                    closer.join(10_000);
                    System.out.println("RESULT closed=" + !closer.isAlive());
                    int n = uncaughtCount.get();
                    System.out.println("RESULT uncaught=" + n);
                    for (int i = 0; i < n && 2 * i + 1 < uncaught.length(); i++) {
                        System.out.println("thread " + uncaught.get(2 * i) + " died of:");
                        if (uncaught.get(2 * i + 1) instanceof Throwable e) {
                            e.printStackTrace(System.out);
                        }
                    }
                    System.out.flush();
                    Runtime.getRuntime().halt(0);    // close() may not have returned: do not wait for it
                }
            }
            """;

    @Test
    void anOutOfMemoryErrorLeavesEveryWorkerRunningAndEveryCounterCompleted(@TempDir Path dir) throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, "OomEpisode", CHILD, 60, "-Xmx64m", "-XX:+UseSerialGC",
                "--add-opens", "java.base/java.lang=ALL-UNNAMED");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        Map<String, String> results = r.results();
        String failure = results.get("episodeFailure");
        assertTrue(failure != null && failure.startsWith("dev.weft.JobFailedException"),
                "the counter recorded the jobs' failure: " + out);
        assertTrue("failed".equals(results.get("episodeAwait")) || "oom".equals(results.get("episodeAwait")),
                "the waiter got the failure (not a timeout: a job's counter stayed up): " + out);
        assertEquals("0", results.get("episodeValue"), "every job of the episode completed its counter: " + out);
        assertEquals("reached", results.get("afterAwait"), "jobs submitted after the episode all ran: " + out);
        assertEquals("0", results.get("afterValue"), out);
        assertEquals("2", results.get("workerThreads"), "both worker threads are alive: " + out);
        for (int w = 0; w < 2; w++) {
            long ran = Long.parseLong(results.getOrDefault("afterJobsOnWorker" + w, "-1"));
            assertTrue(ran > 0, "worker " + w + " still runs jobs after the episode: " + out);
        }
        assertEquals("0", results.get("uncaught"), "no worker thread or fiber died: " + out);
        assertEquals("true", results.get("closed"), "close() returned: " + out);
    }
}
