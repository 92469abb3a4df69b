package dev.weft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A game programmer's program, on the public API only: a job hands its thread to a hand-written
 * signalling scheme, which unparks that thread after the job has ended (a stray unpark, as a late
 * wake-up of any home-made latch does). The fiber that ran the job is idle in the pool by then. Jobs that
 * wait and jobs that do not must all still run, and close() must return (SYNCHRONIZATION.md §3, "Idle
 * fibers": without the idle claim the fiber was handed two jobs and close() never returned).
 */
class StrayUnparkTest {
    @Test
    void aStrayUnparkOfAThreadThatRanAJobLosesNoJobAndCloseReturns() throws Exception {
        JobSystem jobs = JobSystem.builder().workers(1).waitersHelp(false).build();
        try {
            for (int round = 0; round < 20; round++) {
                AtomicReference<Thread> ranOn = new AtomicReference<>();
                jobs.submit(() -> ranOn.getAndSet(Thread.currentThread())).join();
                Thread t = ranOn.get();
                TestSupport.eventually("the job's thread idle", () -> t.getState() == Thread.State.WAITING);
                LockSupport.unpark(t);                        // the stray unpark, after the job ended
                Thread.sleep(20);                             // let it land (a fast machine lands it at once)

                Counter gate = new Counter("gate");
                gate.add(1);
                Counter waiting = new Counter("waiting");
                jobs.run(gate::await, waiting);               // takes an idle fiber and parks it
                JobHandle<String> plain = jobs.submit(() -> "ran");
                assertTrue("ran".equals(TestSupport.join(plain)), "round " + round);
                gate.decrement();
                TestSupport.await(waiting);
            }
        } finally {
            jobs.shutdown();                                   // close() would hang the test on failure
        }
        assertTrue(jobs.awaitTermination(Duration.ofSeconds(30)), "close never finished: " + jobs.stats());
    }
}
