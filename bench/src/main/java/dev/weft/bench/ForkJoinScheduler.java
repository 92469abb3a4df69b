package dev.weft.bench;

import java.util.concurrent.CountedCompleter;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;

/**
 * A private {@link ForkJoinPool} with the same worker count as Weft (LIFO local deques, the default).
 *
 * <ul>
 *   <li>{@link #runAll}: one root {@link CountedCompleter} whose pending count is the completion count;
 *       every job is a child completer submitted with {@link ForkJoinPool#execute(ForkJoinTask)} (from
 *       a task: {@link ForkJoinTask#fork()}).</li>
 *   <li>{@link #fib}: {@link RecursiveTask} with {@link ForkJoinTask#invokeAll(ForkJoinTask, ForkJoinTask)},
 *       the fork-join idiom: one child is forked, the other runs in the caller, then it joins.</li>
 *   <li>{@link #pingPong}: two tasks on two workers using {@link ParkingPingPong} (plain park/unpark,
 *       which blocks the worker: fork-join has no way to suspend a task).</li>
 *   <li>{@link #parallelFor}: a {@link RecursiveAction} halving the range while it is longer than the grain.</li>
 * </ul>
 */
final class ForkJoinScheduler implements SchedulerUnderTest {
    private final ForkJoinPool pool;

    ForkJoinScheduler(int workers) {
        pool = new ForkJoinPool(workers);
    }

    @Override
    public String name() {
        return "forkjoin";
    }

    @Override
    public void runAll(Runnable job, int count) {
        if (count <= 0) {
            return;
        }
        Root root = new Root();
        root.setPendingCount(count - 1);        // the last child to finish completes the root
        for (int i = 0; i < count; i++) {
            pool.execute(new Child(root, job));
        }
        root.join();
    }

    @Override
    public void runAllFromJob(Runnable job, int count) {
        pool.invoke(ForkJoinTask.adapt(() -> {
            if (count <= 0) {
                return;
            }
            Root root = new Root();
            root.setPendingCount(count - 1);
            for (int i = 0; i < count; i++) {
                new Child(root, job).fork();    // onto this worker's deque
            }
            root.join();                        // helps run the children
        }));
    }

    @Override
    public void runAllCounted(Runnable job, int count, boolean fromJob, boolean countOnce) {
        if (countOnce) {
            SchedulerUnderTest.super.runAllCounted(job, count, fromJob, true);   // setPendingCount once
        } else if (fromJob) {
            pool.invoke(ForkJoinTask.adapt(() -> forkCountedEach(job, count)));
        } else {
            Root root = new Root();
            for (int i = 0; i < count; i++) {
                root.addToPendingCount(1);          // one CAS per job, as Weft's run(job, counter) adds 1
                pool.execute(new Child(root, job));
            }
            root.tryComplete();                     // the submitter's own completion: see forkCountedEach
            root.join();
        }
    }

    /**
     * The per-job count from a task. A {@code tryComplete} that finds the root's pending count at zero
     * completes it, one that finds it above zero decrements it, so {@code count} adds need {@code count + 1}
     * calls: one per child and the submitter's after the loop. No child can find zero while the loop still
     * forks, since its own add is counted and its decrement is not.
     */
    private static void forkCountedEach(Runnable job, int count) {
        Root root = new Root();
        for (int i = 0; i < count; i++) {
            root.addToPendingCount(1);
            new Child(root, job).fork();
        }
        root.tryComplete();
        root.join();
    }

    @Override
    public int fib(int n) {
        return pool.invoke(new FibTask(n));
    }

    @Override
    public int fibHandles(int n) {
        return pool.invoke(new FibForkTask(n));
    }

    @Override
    public void pingPong(int rounds) {
        ParkingPingPong token = new ParkingPingPong(rounds);
        ForkJoinTask<?> a = pool.submit(token::sideA);
        ForkJoinTask<?> b = pool.submit(token::sideB);
        a.join();
        b.join();
    }

    @Override
    public void parallelFor(int start, int end, int grain, RangeBody body) {
        pool.invoke(new RangeAction(start, end, Math.max(1, grain), body));
    }

    @Override
    public Pending submitOne(Runnable job) {
        ForkJoinTask<?> task = pool.submit(job);
        return new Pending() {
            @Override
            public boolean isDone() {
                return task.isDone();
            }

            @Override
            public void await() {
                task.join();
            }
        };
    }

    @Override
    public void close() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Completes when all of its children have; never runs itself. */
    private static final class Root extends CountedCompleter<Void> {
        @Override
        public void compute() {
            throw new AssertionError("the root is never forked");
        }
    }

    private static final class Child extends CountedCompleter<Void> {
        private final Runnable job;

        Child(Root root, Runnable job) {
            super(root);
            this.job = job;
        }

        @Override
        public void compute() {
            try {
                job.run();
            } finally {
                tryComplete();
            }
        }
    }

    static final class FibTask extends RecursiveTask<Integer> {
        private final int n;

        FibTask(int n) {
            this.n = n;
        }

        @Override
        protected Integer compute() {
            if (n < 2) {
                return n;
            }
            FibTask a = new FibTask(n - 1);
            FibTask b = new FibTask(n - 2);
            invokeAll(a, b);
            return a.join() + b.join();
        }
    }

    /** The handle style: fork one child, compute the other here, join the first. */
    static final class FibForkTask extends RecursiveTask<Integer> {
        private final int n;

        FibForkTask(int n) {
            this.n = n;
        }

        @Override
        protected Integer compute() {
            if (n < 2) {
                return n;
            }
            FibForkTask a = new FibForkTask(n - 1);
            a.fork();
            int b = new FibForkTask(n - 2).compute();
            return a.join() + b;
        }
    }

    static final class RangeAction extends RecursiveAction {
        private final int start;
        private final int end;
        private final int grain;
        private final RangeBody body;

        RangeAction(int start, int end, int grain, RangeBody body) {
            this.start = start;
            this.end = end;
            this.grain = grain;
            this.body = body;
        }

        @Override
        protected void compute() {
            if (end - start <= grain) {        // halve while longer than the grain, as Weft does
                if (end > start) {
                    body.run(start, end);
                }
                return;
            }
            int mid = (start + end) >>> 1;
            invokeAll(new RangeAction(start, mid, grain, body), new RangeAction(mid, end, grain, body));
        }
    }
}
