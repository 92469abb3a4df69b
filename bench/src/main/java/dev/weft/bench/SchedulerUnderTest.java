package dev.weft.bench;

/**
 * The few operations every workload needs, implemented once per system so that one JMH
 * {@code @Param("system")} can switch between Weft, a {@link java.util.concurrent.ForkJoinPool}
 * and the JDK's default virtual-thread scheduler.
 *
 * <p>Every method is called from the JMH benchmark thread (a plain platform thread) and blocks it
 * until the work it started has completed. Implementations keep the idiom of their system (a
 * {@code RecursiveTask} for fork-join, a virtual thread per job, a {@code Counter} for Weft) rather
 * than a common lowest denominator; each implementation's Javadoc names the primitive it uses.
 */
public interface SchedulerUnderTest extends AutoCloseable {

    /** {@code "weft"}, {@code "forkjoin"} or {@code "vthreads"}. */
    String name();

    /** Submits {@code count} independent jobs that each run {@code job}, tracked by one completion count; waits for all. */
    void runAll(Runnable job, int count);

    /**
     * {@link #runAll} done by a job of the system itself (a fork-join task, a virtual thread, a Weft job),
     * the way a frame's jobs spawn work; the benchmark thread waits for that one job.
     */
    void runAllFromJob(Runnable job, int count);

    /**
     * {@link #runAll} ({@code fromJob} false) or {@link #runAllFromJob} with the completion count kept the
     * same way on every system, so that a ratio compares like with like: {@code countOnce} true raises it
     * by {@code count} once before the jobs are submitted (Weft's {@code runAll}, fork-join's
     * {@code setPendingCount}), false raises it by one per job as each is submitted (Weft's
     * {@code run(job, counter)}, fork-join's {@code addToPendingCount(1)}). A system with one way only (a
     * latch) uses its {@link #runAll} for both.
     */
    default void runAllCounted(Runnable job, int count, boolean fromJob, boolean countOnce) {
        if (fromJob) {
            runAllFromJob(job, count);
        } else {
            runAll(job, count);
        }
    }

    /** Computes fib(n) where every node {@code n >= 2} runs its two children as jobs and waits for them. */
    int fib(int n);

    /**
     * fib(n) written with result handles, as a game programmer writes fork/join: submit the first child,
     * compute the second on the spot, join the first ({@code a = submit(n-1); b = fib(n-2); a.join() + b}).
     */
    int fibHandles(int n);

    /**
     * fib(n) with the system's explicit fork/join call: run one child here, the other as a job, wait
     * (Weft's {@code runAndWait}). Systems without one use what {@link #fib} uses: fork-join's
     * {@code fib} already is {@code invokeAll}, which is that call.
     */
    default int fibFork(int n) {
        return fib(n);
    }

    /**
     * Runs two jobs that hand a token back and forth {@code rounds} times (one round = there and back);
     * returns once both have finished.
     */
    void pingPong(int rounds);

    /** Runs {@code body} over {@code [start, end)} split into ranges of at most {@code grain}; waits. */
    void parallelFor(int start, int end, int grain, RangeBody body);

    /** Submits one job without waiting; the caller then waits on the returned handle. */
    Pending submitOne(Runnable job);

    /** Stops the system's threads (if it owns any). */
    @Override
    void close();

    /** A submitted job as seen by the thread that waits for it. */
    interface Pending {
        /** Non-blocking: has the job finished? */
        boolean isDone();

        /** Blocks the calling thread until the job has finished. */
        void await();
    }
}
