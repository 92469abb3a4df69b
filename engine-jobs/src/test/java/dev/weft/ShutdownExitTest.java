package dev.weft;

import static dev.weft.TestSupport.LONG;
import static dev.weft.TestSupport.system;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the JDK's pools do at the end of a program, which code moving to Weft relies on: shutdownNow stops
 * a job blocked in a JDK call, and the JVM stays up after shutdown() until what was submitted has run.
 */
@Timeout(300)
class ShutdownExitTest {

    /**
     * A queue consumer blocked in take() (or a sleep, or Object.wait) kept close() waiting for ever after
     * shutdownNow: only Weft's own waits were woken, and the thread was never interrupted (a probe of an
     * ExecutorService codebase moved to Weft; the JDK's shutdownNow stops it in milliseconds).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"take", "sleep", "wait"})
    void shutdownNowInterruptsAJobBlockedInAJdkCall(String call) throws Exception {
        JobSystem jobs = system(1);
        CountDownLatch started = new CountDownLatch(1);
        Object monitor = new Object();
        JobHandle<Object> consumer = jobs.submit(Priority.NORMAL, "consumer", () -> {
            started.countDown();
            switch (call) {
                case "take" -> new LinkedBlockingQueue<String>().take();
                case "sleep" -> Thread.sleep(LONG.toMillis() * 10);
                default -> {
                    synchronized (monitor) {
                        monitor.wait();
                    }
                }
            }
            return "woke without an interrupt";
        });
        started.await();
        jobs.shutdownNow();
        boolean terminated = jobs.awaitTermination(LONG);
        assertTrue(terminated, "the consumer blocked in " + call + " kept the system from terminating");
        assertTrue(consumer.isCancelled(), "ended by the interrupt, it honoured the cancellation: " + consumer);
        assertEquals(0, jobs.stats().fibersAlive());
    }

    /**
     * Workers are daemon threads, so {@code jobs.shutdown()} followed by the end of main ended the JVM with
     * the queued job unrun: the save never happened, though shutdown promises to run what was submitted.
     */
    @Test
    void theJvmStaysUpAfterShutdownUntilTheSubmittedJobsRan(@TempDir Path dir) throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, "SaveThenExit", """
                import dev.weft.*;
                public class SaveThenExit {
                    public static void main(String[] args) {
                        JobSystem jobs = JobSystem.builder().workers(1).build();
                        jobs.run(() -> {
                            try {
                                Thread.sleep(300);
                            } catch (InterruptedException e) {
                                throw new RuntimeException(e);
                            }
                            System.out.println("saved");
                        });
                        jobs.shutdown();
                        System.out.println("main returns");
                    }
                }
                """, "--add-opens", "java.base/java.lang=ALL-UNNAMED");
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("main returns") && r.output().contains("saved"),
                "the job queued before shutdown() did not run: " + r.output());
    }

    /**
     * The other side of keeping the JVM up: a job waiting on a main-thread job, after a main() that bound the
     * main thread and returned, must not keep it up for ever. Nobody will run that main-thread job: it is
     * cancelled, the waiting job ends, the JVM exits (ChildJvm fails after 120 s).
     */
    @Test
    void aJobWaitingOnTheMainThreadAfterMainReturnedDoesNotKeepTheJvmUp(@TempDir Path dir) throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, "UploadAfterExit", """
                import dev.weft.*;
                public class UploadAfterExit {
                    public static void main(String[] args) throws Exception {
                        JobSystem jobs = JobSystem.builder().workers(1).build();
                        jobs.bindMainThread();
                        JobHandle<Integer> load = jobs.submit(() -> jobs.onMainThread("upload", () -> 1).join());
                        while (jobs.stats().waits() == 0) {
                            Thread.sleep(1);
                        }
                        jobs.shutdown();
                        System.out.println("main returns");
                    }
                }
                """, "--add-opens", "java.base/java.lang=ALL-UNNAMED");
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("main returns"), r.output());
    }
}
