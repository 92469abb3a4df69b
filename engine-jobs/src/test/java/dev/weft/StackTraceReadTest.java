package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * A game programmer's watchdog, on the public API only: a thread samples the stacks of the threads its
 * jobs run on ({@code Thread.getStackTrace}, as a stall detector or an in-game profiler does) while the
 * jobs yield and sleep. On JDK 25, reading the stack of a virtual thread that is waiting in a ready queue
 * resubmits it ("the task may have run while suspended"), so Weft is handed one wake twice. Every job must
 * still run once, the counts must be right, and close() must return (SYNCHRONIZATION.md §3, "One mount at
 * a time": without the mount claim, the second carrier overwrote the fiber's worker while it ran
 * elsewhere; under -ea that failed the fiber's worker check and the job never completed).
 */
@Timeout(120)
class StackTraceReadTest {
    private static final int JOBS_PER_ROUND = 64;
    private static final int YIELDS_PER_JOB = 20;

    @ParameterizedTest(name = "stacks sampled: {0}")
    @ValueSource(booleans = {true, false})
    void yieldingAndSleepingJobsLoseNoJobAndRunNoneTwice(boolean sampleStacks) throws Exception {
        int rounds = TestSupport.FULL ? 400 : 60;
        JobSystem jobs = JobSystem.builder().name("sampled").workers(2).build();
        Set<Thread> jobThreads = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong samples = new AtomicLong();
        Thread sampler = Thread.ofPlatform().name("stack-sampler").start(() -> {
            while (sampleStacks && !stop.get()) {
                for (Thread t : jobThreads) {
                    t.getStackTrace();
                    samples.incrementAndGet();
                }
                Thread.onSpinWait();
            }
        });
        AtomicLong ran = new AtomicLong();
        try {
            for (int round = 0; round < rounds; round++) {
                Counter all = new Counter("round " + round);
                for (int i = 0; i < JOBS_PER_ROUND; i++) {
                    int id = i;
                    jobs.run(Priority.NORMAL, "sampled job", () -> {
                        jobThreads.add(Thread.currentThread());
                        for (int y = 0; y < YIELDS_PER_JOB; y++) {
                            if ((id + y) % 4 == 0) {
                                LockSupport.parkNanos(20_000);       // a short sleep: a timed park and wake
                            } else {
                                Thread.yield();                      // queued as ready, without a park
                            }
                        }
                        ran.incrementAndGet();
                    }, all);
                }
                TestSupport.await(all);
            }
        } finally {
            stop.set(true);
            sampler.join();
            jobs.shutdown();
        }
        assertTrue(jobs.awaitTermination(Duration.ofSeconds(30)), "close never finished: " + jobs.stats());
        assertEquals((long) rounds * JOBS_PER_ROUND, ran.get());
        assertEquals((long) rounds * JOBS_PER_ROUND, jobs.stats().jobsRun());
        assertTrue(!sampleStacks || samples.get() > 0, "the sampler read no stack");
        System.out.println("StackTraceReadTest: " + samples.get() + " stack reads, "
                + jobs.schedulerForTests().fibers.duplicateWakes.get() + " duplicate wakes dropped");
    }
}
