package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A main-thread job is a job: while the system closes gracefully, what it submits is accepted, as from a job
 * on a worker, and runs (or, if the workers have terminated meanwhile, is cancelled: never stranded). It
 * was refused ("submit refused: job system 'weft' is closing ...: only jobs already running may still
 * submit"), so an upload whose follow-up work forks ({@code runAndWait}, {@code run}, {@code parallelFor},
 * {@code after}) failed, and so did the loading job that joined it, in 105 of 200 rounds of a probe that
 * closed the system from another thread during a frame loop.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MainThreadJobWhileClosingTest {

    @Test
    void aMainThreadJobRunWhileClosingMaySubmitAsAJobMay() throws Exception {
        JobSystem jobs = TestSupport.system(2);
        jobs.bindMainThread();
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch posted = new CountDownLatch(1);
        JobHandle<Integer> loader = jobs.submit(Priority.NORMAL, "loader", () -> {
            JobHandle<Integer> upload = jobs.onMainThread("upload", () -> {
                jobs.runAndWait(Priority.FRAME, ran::incrementAndGet, ran::incrementAndGet);
                Counter followUp = new Counter("follow-up");
                jobs.run(Priority.NORMAL, "collision", ran::incrementAndGet, followUp);
                jobs.runAll(Priority.NORMAL, followUp, ran::incrementAndGet, ran::incrementAndGet);
                jobs.parallelFor(Priority.NORMAL, 0, 4, 1, (s, e, w) -> ran.addAndGet(e - s), followUp);
                JobHandle<Integer> lod = jobs.submit(Priority.NORMAL, "lod", () -> 10);
                JobHandle<Integer> after = jobs.after(lod).submit(Priority.NORMAL, "after lod", () -> lod.join() + 1);
                followUp.await();
                return after.join();
            });
            posted.countDown();
            return upload.join();          // parked: the system cannot terminate under the upload
        });
        posted.await();
        jobs.shutdown();                   // CLOSING: the upload is queued, not yet run
        jobs.runMainThreadJobs(TimeUnit.SECONDS.toNanos(30));
        assertEquals(11, TestSupport.join(loader), "the upload's follow-up jobs ran");
        TestSupport.closeWithin(jobs);
        assertEquals(9, ran.get(), "2 from runAndWait, 1 run, 2 runAll, 4 parallelFor pieces");
    }

    /**
     * The last worker has decided to terminate (its last scan found nothing) when the main thread runs a
     * main-thread job that submits: accepted while CLOSING, nothing held the system up for it, so the
     * terminator's drain after it writes TERMINATED must cancel it (the submitter's own re-read after its
     * offer covers the other order).
     */
    @Test
    void aJobAMainThreadJobSubmitsAsTheWorkersTerminateIsCancelledNotStranded() throws Exception {
        JobSystem jobs = TestSupport.system(1);
        jobs.bindMainThread();
        Counter counted = new Counter("late follow-up");
        AtomicBoolean ran = new AtomicBoolean();
        AtomicReference<Throwable> refused = new AtomicReference<>();
        CountDownLatch decided = new CountDownLatch(1);
        CountDownLatch submitted = new CountDownLatch(1);
        jobs.schedulerForTests().beforeTerminationForTests = () -> {
            decided.countDown();
            try {
                submitted.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        };
        jobs.onMainThread("upload", () -> {
            try {
                jobs.run(Priority.NORMAL, "late follow-up", () -> ran.set(true), counted);
            } catch (Throwable t) {
                refused.set(t);
            } finally {
                submitted.countDown();
            }
            return null;
        });
        jobs.shutdown();
        decided.await();                   // the worker decided, TERMINATED not yet written
        jobs.runMainThreadJobs(TimeUnit.SECONDS.toNanos(30));
        assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated");
        assertNull(refused.get(), "a main-thread job's submission while closing is accepted");
        TestSupport.await(counted);
        assertFalse(ran.get(), "accepted after the last scan: cancelled by the terminator's drain, not run");
    }
}
