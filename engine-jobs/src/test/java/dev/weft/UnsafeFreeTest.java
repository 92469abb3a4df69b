package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Weft needs no {@code --sun-misc-unsafe-memory-access} flag: in a child JVM that denies every
 * {@code sun.misc.Unsafe} memory access (any call throws), a workload through every queue Weft uses runs
 * clean: outside submissions (the injection queue), fork/join and stolen nodes returned home (the
 * workers' MPSC return queues), outside nodes recycled in batches, more than a thousand fibers parked at
 * once and then pooled idle (the idle pool's array and its overflow), main-thread jobs (the mailbox).
 * Failed with JCTools 4.0.5's Unsafe queues: the first outside submission threw.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class UnsafeFreeTest {
    @Test
    void aWorkloadThroughEveryQueueRunsWithUnsafeMemoryAccessDenied(@TempDir Path dir) throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, "NoUnsafe", """
                import dev.weft.*;
                                public class NoUnsafe {
                    static long fib(JobSystem jobs, int n) {
                        if (n < 2) return n;
                        JobHandle<Long> a = jobs.submit(() -> fib(jobs, n - 1));
                        long b = fib(jobs, n - 2);
                        return a.join() + b;
                    }
                    public static void main(String[] args) {
                        try (JobSystem jobs = JobSystem.builder().workers(2).build()) {
                            jobs.bindMainThread();
                            Counter c = new Counter("outside");
                            for (int i = 0; i < 5_000; i++) jobs.run(Priority.NORMAL, "o", () -> {}, c);
                            c.await();
                            System.out.println("fib " + jobs.submit(() -> fib(jobs, 20)).join());
                            Counter gate = new Counter("gate");
                            gate.add(1);
                            Counter parked = new Counter("parked");
                            for (int i = 0; i < 1_500; i++) jobs.run(Priority.NORMAL, "p", () -> gate.await(), parked);
                            long deadline = System.nanoTime() + 60_000_000_000L;
                            while (jobs.stats().fibersParked() < 1_500 && System.nanoTime() < deadline) Thread.onSpinWait();
                            System.out.println("parked at once " + jobs.stats().fibersParked());
                            gate.decrement();
                            parked.await();
                            Counter again = new Counter("again");
                            for (int i = 0; i < 1_500; i++) jobs.run(Priority.NORMAL, "q", () -> Thread.sleep(1), again);
                            again.await();
                            JobHandle<String> main = jobs.onMainThread(() -> "main");
                            System.out.println(main.join() + " " + jobs.stats().fibersCreated() + " fibers");
                        }
                        System.out.println("clean");
                    }
                }
                """, "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=deny");
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("fib 6765") && r.output().contains("clean"), r.output());
        assertTrue(r.output().contains("parked at once 1500"), "more fibers than the idle pool's array: " + r.output());
        assertFalse(r.output().contains("Unsafe"), r.output());
    }
}
