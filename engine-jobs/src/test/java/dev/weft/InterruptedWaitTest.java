package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A wait whose thread is interrupted: waits are not interruptible, so it parks like any other and sets
 * the interrupt status again when it returns. Before, a park returned at once while the status was set,
 * so the wait spun for as long as it lasted: on a fiber it held its worker, and on one worker the job
 * that would have ended the wait never ran (a hang). Found while fixing the inline interrupt leak.
 */
@Timeout(60)
class InterruptedWaitTest {

    @Test
    void anInterruptedJobWaitingOnACounterParksAndFreesItsWorker() {
        try (JobSystem jobs = TestSupport.system(1)) {
            Counter released = new Counter("released by the next job");
            released.add(1);
            Counter done = new Counter("done");
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            jobs.run(Priority.NORMAL, "interrupted waiter", () -> {
                Thread.currentThread().interrupt();
                released.await();                      // must park: the only worker runs the releaser next
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }, done);
            jobs.run(Priority.NORMAL, "releaser", released::decrement, done);
            assertTrue(done.await(Duration.ofSeconds(10)), "the waiter held the only worker: " + jobs.stats());
            assertTrue(stillInterrupted.get(), "the waiter's interrupt status is set again after the wait");
        }
    }

    @Test
    void anInterruptedThreadWaitingOnACounterSleepsInsteadOfSpinning() throws Exception {
        try (JobSystem jobs = TestSupport.system(1)) {
            Counter later = new Counter("decremented 500 ms later");
            later.add(1);
            Thread.ofPlatform().start(() -> {
                TestSupport.sleepMillis(500);
                later.decrement();
            });
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long cpuBefore = threads.getCurrentThreadCpuTime();
            Thread.currentThread().interrupt();
            later.await();
            long cpuNanos = threads.getCurrentThreadCpuTime() - cpuBefore;
            assertTrue(Thread.interrupted(), "the interrupt status is set again after the wait (and cleared here)");
            // A spinning wait burned 187 ms of a 300 ms wait here (sharing 2 cores); a parked one a few ms.
            assertTrue(cpuNanos < 100_000_000L, "the wait spun: " + cpuNanos / 1_000_000 + " ms of CPU");
            assertEquals(0, later.value());
        }
    }

    /** An interrupt that reaches a pooled fiber after its job ended (a late FutureTask.cancel(true), say). */
    @Test
    void interruptingAnIdleFiberDoesNotStallItsWorker() {
        try (JobSystem jobs = TestSupport.system(1)) {
            AtomicReference<Thread> fiber = new AtomicReference<>();
            TestSupport.join(jobs.submit(() -> fiber.getAndSet(Thread.currentThread())));
            TestSupport.sleepMillis(50);                  // the fiber is back in the pool, parked idle
            fiber.get().interrupt();
            TestSupport.sleepMillis(50);
            Counter later = new Counter("later jobs");
            for (int i = 0; i < 100; i++) {
                jobs.run(Priority.NORMAL, "later", () -> { }, later);
            }
            assertTrue(later.await(Duration.ofSeconds(10)), "the worker is stuck: " + jobs.stats());
        }
    }
}
