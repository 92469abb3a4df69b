package dev.weft.bench;

import dev.weft.Counter;
import dev.weft.IdleStrategy;
import dev.weft.Job;
import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.JobSystemBuilder;
import dev.weft.Priority;
import java.util.Arrays;

/**
 * Weft with {@code workers} worker threads and default settings (the back-off idle strategy, a
 * growable fiber pool).
 *
 * <ul>
 *   <li>{@link #runAll}: {@code jobs.run(job, counter)} {@code count} times, then {@code counter.await()}
 *       on the benchmark thread. The {@link Job} and the {@link Counter} are reused from call to call
 *       (the counter is back at zero after each wait), so {@code EmptyJobs} allocates nothing per op
 *       on the benchmark side: {@code gc.alloc.rate.norm} is what Weft itself allocates per job.
 *       {@link #runAllFromJob} does the same inside one job (one capturing lambda per call).</li>
 *   <li>{@link #fib}: the root is a {@code submit}ted job; every node runs two children with one new
 *       counter and awaits it, parking its fiber.</li>
 *   <li>{@link #fibHandles}: every node submits one child, computes the other, and joins the handle.</li>
 *   <li>{@link #fibFork}: every node calls {@code jobs.runAndWait(a, b)}: a runs on the spot, b as a job.</li>
 *   <li>{@link #pingPong}: two jobs and two counters, {@code aMayGo} (starts at 0) and {@code bMayGo}
 *       (starts at 1). Each side awaits its own counter, re-arms it with {@code add(1)}, then releases
 *       the other with {@code decrement()}. Both waits park a fiber: this is Weft's wait/resume.</li>
 *   <li>{@link #parallelFor}: {@code jobs.parallelFor(start, end, grain, body)}.</li>
 *   <li>{@link #submitOne}: {@code jobs.run(job, counter)}; done is {@code counter.isDone()}.</li>
 * </ul>
 */
final class WeftScheduler implements SchedulerUnderTest {
    private final JobSystem jobs;
    private final Counter batch = new Counter("runAll");   // one runAll at a time; zero between calls
    private final Counter spawner = new Counter("runAllFromJob"); // benchmark thread only; zero between calls
    private Runnable lastRunnable;                         // benchmark thread only: adapter cache
    private Job lastJob;
    private Job[] lastBatch;                               // benchmark thread only: runAllCounted's batch

    /**
     * {@code -Dweft.bench.idle=spins,yields} runs Weft with {@code IdleStrategy.backoff(spins, yields)}
     * instead of the default: the A/B of idle strategies. Give it to the forks with
     * {@code -jvmArgsAppend "--add-opens java.base/java.lang=ALL-UNNAMED -Dweft.bench.idle=200,0"}: JMH's
     * command-line option replaces the benchmarks' own {@code @Fork(jvmArgsAppend)}, flag included.
     */
    static final String IDLE_PROPERTY = "weft.bench.idle";

    WeftScheduler(int workers) {
        JobSystemBuilder builder = JobSystem.builder().workers(workers).name("bench");
        String idle = System.getProperty(IDLE_PROPERTY);
        if (idle != null) {
            String[] counts = idle.split(",");
            if (counts.length != 2) {
                throw new IllegalArgumentException("-D" + IDLE_PROPERTY + " wants spins,yields (two counts), got '"
                        + idle + "'");
            }
            builder.idleStrategy(IdleStrategy.backoff(idleCount(counts[0], idle), idleCount(counts[1], idle)));
        }
        jobs = builder.build();
    }

    private static int idleCount(String count, String whole) {
        try {
            return Integer.parseInt(count.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + IDLE_PROPERTY + " wants spins,yields (two whole numbers, such as"
                    + " 200,0), got '" + whole + "'", e);
        }
    }

    @Override
    public String name() {
        return "weft";
    }

    @Override
    public void runAll(Runnable job, int count) {
        Job j = adapt(job);
        Counter done = batch;
        for (int i = 0; i < count; i++) {
            jobs.run(j, done);
        }
        done.await();
    }

    @Override
    public void runAllCounted(Runnable job, int count, boolean fromJob, boolean countOnce) {
        if (!countOnce) {
            SchedulerUnderTest.super.runAllCounted(job, count, fromJob, false);   // run(job, counter) each
            return;
        }
        Job[] all = batchOf(job, count);
        Counter inner = batch;
        if (!fromJob) {
            jobs.runAll(Priority.NORMAL, inner, all);
            inner.await();
            return;
        }
        jobs.run(() -> {
            jobs.runAll(Priority.NORMAL, inner, all);
            inner.await();
        }, spawner);
        spawner.await();
    }

    /** {@code count} times the adapted {@code job}, kept from call to call (benchmark thread only). */
    private Job[] batchOf(Runnable job, int count) {
        Job j = adapt(job);
        if (lastBatch == null || lastBatch.length != count || lastBatch[0] != j) {
            lastBatch = new Job[count];
            Arrays.fill(lastBatch, j);
        }
        return lastBatch;
    }

    @Override
    public void runAllFromJob(Runnable job, int count) {
        Job j = adapt(job);
        Counter inner = batch;
        Counter outer = spawner;
        jobs.run(() -> {
            for (int i = 0; i < count; i++) {
                jobs.run(j, inner);
            }
            inner.await();                      // parks the spawning job's fiber
        }, outer);
        outer.await();
    }

    @Override
    public int fib(int n) {
        return jobs.submit(() -> fibNode(n)).join();
    }

    @Override
    public int fibHandles(int n) {
        return jobs.submit(() -> fibHandleNode(n)).join();
    }

    private int fibHandleNode(int n) {
        if (n < 2) {
            return n;
        }
        JobHandle<Integer> a = jobs.submit(() -> fibHandleNode(n - 1));
        int b = fibHandleNode(n - 2);
        return a.join() + b;                    // runs a right here unless another worker stole it
    }

    @Override
    public int fibFork(int n) {
        return jobs.submit(() -> fibForkNode(n)).join();
    }

    private int fibForkNode(int n) {
        if (n < 2) {
            return n;
        }
        int[] r = new int[2];
        jobs.runAndWait(() -> r[0] = fibForkNode(n - 1), () -> r[1] = fibForkNode(n - 2));
        return r[0] + r[1];                     // the wait orders the job's write before this read
    }

    private int fibNode(int n) {
        if (n < 2) {
            return n;
        }
        Counter children = new Counter();
        int[] r = new int[2];
        jobs.run(() -> r[0] = fibNode(n - 1), children);
        jobs.run(() -> r[1] = fibNode(n - 2), children);
        children.await();                       // the decrement after each child orders its write before this read
        return r[0] + r[1];
    }

    @Override
    public void pingPong(int rounds) {
        Counter aMayGo = new Counter("ping");
        Counter bMayGo = new Counter("pong");
        bMayGo.add(1);
        Counter done = new Counter("pingPong");
        jobs.run(() -> {
            for (int r = 0; r < rounds; r++) {
                aMayGo.await();
                aMayGo.add(1);                  // re-arm before releasing B: B decrements it next
                bMayGo.decrement();
            }
        }, done);
        jobs.run(() -> {
            for (int r = 0; r < rounds; r++) {
                bMayGo.await();
                bMayGo.add(1);
                aMayGo.decrement();
            }
        }, done);
        done.await();
    }

    @Override
    public void parallelFor(int start, int end, int grain, RangeBody body) {
        jobs.parallelFor(start, end, grain, (s, e, worker) -> body.run(s, e));
    }

    @Override
    public Pending submitOne(Runnable job) {
        Counter done = new Counter();
        jobs.run(adapt(job), done);
        return new Pending() {
            @Override
            public boolean isDone() {
                return done.isDone();
            }

            @Override
            public void await() {
                done.await();
            }
        };
    }

    @Override
    public void close() {
        jobs.close();
    }

    private Job adapt(Runnable job) {
        if (job != lastRunnable) {
            lastRunnable = job;
            lastJob = job::run;
        }
        return lastJob;
    }
}
