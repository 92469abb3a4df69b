package dev.weft;

import static dev.weft.TestSupport.LONG;
import static dev.weft.TestSupport.system;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The game thread's interrupt status and the main-thread jobs it runs, found by a probe: with the status
 * set (a library interrupted the game thread, or the game did to stop its own wait), every upload that
 * slept or waited failed with {@code InterruptedException}, and its sleep consumed the status, so the game
 * loop lost the interrupt meant for it. A main-thread job now starts with the status clear and the thread
 * gets its own back, as for a job a waiting thread helps with or one run nested on a fiber.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MainThreadInterruptTest {

    /** An upload that sleeps, as a GL driver call or a blocking library call may. */
    private static final Callable<String> UPLOAD = () -> {
        boolean sawInterrupt = Thread.currentThread().isInterrupted();
        Thread.sleep(1);
        return "uploaded, saw interrupt: " + sawInterrupt;
    };

    @Test
    void runMainThreadJobsOnAnInterruptedGameThread() throws Exception {
        try (JobSystem jobs = system(1)) {
            jobs.bindMainThread();
            try {
                JobHandle<String> upload = jobs.onMainThread("upload", UPLOAD);
                Thread.currentThread().interrupt();
                assertEquals(1, jobs.runMainThreadJobs(Long.MAX_VALUE));
                assertTrue(Thread.currentThread().isInterrupted(), "the game thread's interrupt was consumed by a job");
                Thread.interrupted();
                assertEquals("uploaded, saw interrupt: false", upload.join(LONG));
            } finally {
                Thread.interrupted();
            }
        }
    }

    @Test
    void aJoinOnAnInterruptedGameThreadThatRunsTheMainThreadJob() {
        try (JobSystem jobs = system(1)) {
            jobs.bindMainThread();
            try {
                JobHandle<String> viaWorker = jobs.submit(Priority.NORMAL, "loader",
                        () -> jobs.onMainThread("upload", UPLOAD).join());
                Thread.currentThread().interrupt();
                String result = viaWorker.join();     // runs the upload on this thread while it waits
                assertTrue(Thread.currentThread().isInterrupted(), "the game thread's interrupt was consumed by a job");
                Thread.interrupted();
                assertEquals("uploaded, saw interrupt: false", result);
            } finally {
                Thread.interrupted();
            }
        }
    }
}
