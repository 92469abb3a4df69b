package dev.weft;

import static dev.weft.TestSupport.LONG;
import static dev.weft.TestSupport.system;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task of an {@code asExecutorService()} view that closes that view (a library's last callback closing
 * the executor it runs on), found by a probe: the JDK's default {@code close()} shut the view down and then
 * waited for its termination, which waited for the very task that called it: for ever, without a word,
 * where {@link JobSystem#close()} inside a job starts the shutdown and returns. Now the view's close()
 * does the same inside its own task, and {@code awaitTermination} there says what is wrong, as the job
 * system's does.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExecutorServiceSelfCloseTest {

    @Test
    void aTaskClosingItsOwnViewShutsItDownAndReturns() throws Exception {
        try (JobSystem jobs = system(2)) {
            // Many rounds: a task that closes its view as it starts may run before its submitter has
            // registered it among the view's live tasks.
            for (int round = 0; round < 200; round++) {
                ExecutorService pool = jobs.asExecutorService();
                Future<String> f = pool.submit(() -> {
                    pool.close();
                    return "closed";
                });
                assertEquals("closed", f.get(LONG.toSeconds(), TimeUnit.SECONDS),
                        "round " + round + ": close() inside the view's own task waited for that task");
                assertTrue(pool.isShutdown(), "round " + round + ": close() shut the view down");
                assertTrue(pool.awaitTermination(LONG.toSeconds(), TimeUnit.SECONDS),
                        "round " + round + ": the view terminates once the task ended");
            }
        }
    }

    @Test
    void aJobRunInlineByTheTaskClosingTheViewReturnsToo() throws Exception {
        try (JobSystem jobs = system(1)) {               // one worker: the join runs the child inline
            ExecutorService pool = jobs.asExecutorService();
            Future<String> f = pool.submit(() -> jobs.submit(() -> {
                pool.close();
                return "child closed the view";
            }).join());
            assertEquals("child closed the view", f.get(LONG.toSeconds(), TimeUnit.SECONDS));
            assertTrue(pool.awaitTermination(LONG.toSeconds(), TimeUnit.SECONDS));
        }
    }

    @Test
    void awaitTerminationInsideTheViewsOwnTaskSaysItWouldWaitForItself() throws Exception {
        try (JobSystem jobs = system(2)) {
            ExecutorService pool = jobs.asExecutorService();
            Future<Boolean> f = pool.submit(() -> {
                pool.shutdown();
                return pool.awaitTermination(1, TimeUnit.DAYS);
            });
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> f.get(LONG.toSeconds(), TimeUnit.SECONDS));
            IllegalStateException refused = assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(refused.getMessage().contains("it would wait for itself. Call shutdown() from the task"),
                    refused.getMessage());
            assertTrue(pool.awaitTermination(LONG.toSeconds(), TimeUnit.SECONDS));
        }
    }
}
