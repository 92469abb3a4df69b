package dev.weft;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job waiting for prerequisites, released by a thread that is no worker while a graceful close
 * terminates: it is accepted while CLOSING (it was submitted before the close), so nothing kept the system
 * up for it, and the last worker may terminate between its last scan and the release's offer. The job must
 * then be cancelled and its counter complete, not stay in a queue no worker reads (the counter stuck at 1
 * after termination: {@code JobGraphRefusalTest} once, a graph node released inline by its registration).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LateReleaseTerminationTest {

    @Test
    void aJobReleasedFromOutsideAfterTheLastScanIsCancelledAndItsCounterCompletes() throws Exception {
        LateJob l = new LateJob();
        JobSystem jobs = l.jobs;
        // The worker decided to terminate (its last scan found nothing, no outside submitter was in flight);
        // the gate opens now, on a thread that is no worker, which reads CLOSING and queues the job.
        jobs.schedulerForTests().beforeTerminationForTests = () -> {
            Thread opener = new Thread(l.gate::decrement, "opener");
            opener.start();
            try {
                opener.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        };
        l.shutDownAndCheckCancelled();
    }

    @Test
    void aJobOfferedAfterTheTerminatorsDrainIsCancelledByItsReleaser() throws Exception {
        LateJob l = new LateJob();
        JobSystem jobs = l.jobs;
        CountDownLatch closingRead = new CountDownLatch(1);
        Scheduler s = jobs.schedulerForTests();
        // The opener reads CLOSING after the worker's decision, then offers only once the worker has written
        // TERMINATED, drained the queues (empty then) and exited.
        s.beforeLateInjectForTests = () -> {
            closingRead.countDown();
            try {
                assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated while the opener waited");
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        };
        Thread[] opener = new Thread[1];
        s.beforeTerminationForTests = () -> {
            opener[0] = new Thread(l.gate::decrement, "opener");
            opener[0].start();
            try {
                closingRead.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        };
        l.shutDownAndCheckCancelled();
        opener[0].join();
    }

    /** One worker, and a job that waits for {@code gate} (closed: 1) and is counted by its own counter. */
    private static final class LateJob {
        final JobSystem jobs = TestSupport.system(1);
        final Counter gate = new Counter("gate");
        final Counter counted = new Counter("late job");
        final AtomicBoolean ran = new AtomicBoolean();
        final JobHandle<Boolean> late;

        LateJob() {
            gate.add(1);
            late = jobs.after(gate).submit(Priority.NORMAL, "late", () -> ran.getAndSet(true), counted);
        }

        /** A graceful close; then the late job must be cancelled, not run, and its counter complete. */
        void shutDownAndCheckCancelled() throws InterruptedException {
            jobs.shutdown();
            assertTrue(jobs.awaitTermination(TestSupport.LONG), "terminated");
            TestSupport.await(counted);
            assertTrue(late.isCancelled(), "the late job is reported cancelled: " + late);
            assertFalse(ran.get(), "it did not run");
        }
    }
}
