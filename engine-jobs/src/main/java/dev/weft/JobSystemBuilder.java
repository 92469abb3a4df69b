package dev.weft;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Settings for a {@link JobSystem}, from {@link JobSystem#builder()}.
 *
 * <pre>{@code
 * JobSystem jobs = JobSystem.builder()
 *         .name("game")
 *         .workers(Math.max(1, Runtime.getRuntime().availableProcessors() - 1))   // a core for the main thread
 *         .maxWorkers(Priority.BACKGROUND, 1)                        // streaming never takes every worker
 *         .build();
 * }</pre>
 */
public final class JobSystemBuilder {
    String name = "weft";
    int workers = Runtime.getRuntime().availableProcessors();
    long workerStackBytes = JobSystem.DEFAULT_WORKER_STACK_BYTES;
    IdleStrategy idleStrategy = IdleStrategy.backoff();
    FiberPoolPolicy fiberPool = FiberPoolPolicy.growable();
    Duration watchdogThreshold;
    java.util.function.Consumer<WatchdogReport> watchdogSink = r -> System.err.println(r);
    Long deterministicSeed;
    boolean pinWorkers;
    // Tests only (a Lincheck test whose model checker cannot have threads started under it): no
    // ShutdownKeeper for this system.
    boolean keepsJvmUpWhileShuttingDown = true;
    private final int[] maxWorkers = new int[Priority.COUNT];   // 0: not set
    boolean waitersHelp = true;
    long readyGraceNanos = WorkPicker.DEFAULT_READY_GRACE_NANOS;   // internal: tests set it (WorkPicker#stealReady)
    BiConsumer<String, Throwable> uncaughtFailureHandler = (job, t) -> {
        System.err.println("weft: job '" + job + "' failed and nobody waits for it:");
        t.printStackTrace();
    };

    JobSystemBuilder() {}

    /**
     * Thread-name prefix (default "weft").
     *
     * @param name the prefix of worker and fiber thread names, and the system's {@link JobSystem#name()};
     *             not null
     * @return this builder
     */
    public JobSystemBuilder name(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return this;
    }

    /**
     * Number of worker threads (default: available processors).
     *
     * @param workers the number of worker threads, between 1 and 1024
     * @return this builder
     * @throws IllegalArgumentException if {@code workers} is out of that range
     */
    public JobSystemBuilder workers(int workers) {
        if (workers < 1 || workers > 1024) {
            throw new IllegalArgumentException("workers must be between 1 and 1024, got " + workers);
        }
        this.workers = workers;
        return this;
    }

    /**
     * Worker thread stack size in bytes (default 64 MiB of reserved, lazily committed memory).
     *
     * @param bytes the stack size of each worker thread in bytes, from 256 KiB to 1 GiB
     * @return this builder
     * @throws IllegalArgumentException if {@code bytes} is less than 256 KiB or more than 1 GiB
     */
    public JobSystemBuilder workerStackBytes(long bytes) {
        if (bytes < (256 << 10) || bytes > (1L << 30)) {
            // Above 1 GiB the operating system refuses the thread (or reserves address space for nothing):
            // build() then failed with the workers it had started already running.
            throw new IllegalArgumentException("worker stack must be from 256 KiB to 1 GiB (the default is "
                    + (JobSystem.DEFAULT_WORKER_STACK_BYTES >> 20) + " MiB), got " + bytes + " bytes");
        }
        this.workerStackBytes = bytes;
        return this;
    }

    /**
     * What idle workers do (default {@link IdleStrategy#backoff()}).
     *
     * @param strategy how idle workers spin, yield and park; not null
     * @return this builder
     */
    public JobSystemBuilder idleStrategy(IdleStrategy strategy) {
        this.idleStrategy = Objects.requireNonNull(strategy, "idleStrategy");
        return this;
    }

    /**
     * How many fibers may exist (default {@link FiberPoolPolicy#growable()}).
     *
     * @param policy how many fibers may exist and how long a dry pool is tolerated; not null
     * @return this builder
     */
    public JobSystemBuilder fiberPool(FiberPoolPolicy policy) {
        this.fiberPool = Objects.requireNonNull(policy, "fiberPool");
        return this;
    }

    /**
     * Receives failures of jobs that nobody waits for (no counter, no handle). Default: stderr.
     * The handler may block or park (a logger's lock). If it throws, Weft prints the job's failure and the
     * handler's own exception to stderr and goes on: nothing it throws reaches a job, a worker or a waiter.
     *
     * @param handler called with the job's name (or null) and its failure, on the thread that ran the
     *                job; not null
     * @return this builder
     */
    public JobSystemBuilder onUncaughtFailure(BiConsumer<String, Throwable> handler) {
        this.uncaughtFailureHandler = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * Turns on the watchdog: every {@code threshold / 4} it reports (to stderr) jobs parked longer
     * than {@code threshold} (on a counter, or outside Weft's waits: a sleep, a lock or monitor,
     * {@code Object.wait}), jobs holding a worker longer than that without parking, and wait cycles
     * (of parked jobs, and of jobs waiting for their {@code after(...)} prerequisites; see
     * {@link JobSystem#findWaitCycles()}).
     *
     * @param threshold how long a job may stay parked or hold a worker before it is reported; positive
     * @return this builder
     * @throws IllegalArgumentException if {@code threshold} is zero or negative
     */
    public JobSystemBuilder watchdog(Duration threshold) {
        return watchdog(threshold, r -> System.err.println(r));
    }

    /**
     * Turns on the watchdog with reports going to {@code sink} (called on the watchdog thread).
     *
     * @param threshold how long a job may stay parked or hold a worker before it is reported; positive
     * @param sink receives each report; not null
     * @return this builder
     * @throws IllegalArgumentException if {@code threshold} is zero or negative
     */
    public JobSystemBuilder watchdog(Duration threshold, java.util.function.Consumer<WatchdogReport> sink) {
        if (threshold == null) {
            throw new NullPointerException("watchdog threshold is null: pass how long a job may stay parked or"
                    + " hold a worker before it is reported, e.g. Duration.ofMillis(100)");
        }
        if (threshold.isNegative() || threshold.isZero()) {
            throw new IllegalArgumentException("watchdog threshold must be positive, got " + threshold);
        }
        this.watchdogThreshold = threshold;
        this.watchdogSink = Objects.requireNonNull(sink, "sink");
        return this;
    }

    /**
     * Pins worker {@code i} to the {@code i}-th CPU (mod their count) of those the thread calling
     * {@link #build()} may run on (its affinity mask, which the workers inherit: all CPUs, or what
     * {@code taskset} or a container's cpuset allows) with libc's
     * {@code sched_setaffinity} (Linux, through the Foreign Function API; the JVM should run with
     * {@code --enable-native-access=ALL-UNNAMED}). Elsewhere, or if the call fails, the workers run
     * unpinned and one line on stderr says why. Off by default: on a shared or small machine pinning
     * can make frame times worse (the OS can no longer move a worker off a busy core).
     *
     * @param pin true to pin each worker to one CPU
     * @return this builder
     */
    public JobSystemBuilder pinWorkersToCores(boolean pin) {
        this.pinWorkers = pin;
        return this;
    }

    /**
     * At most {@code n} workers run jobs of {@code priority} at once, while there is other work for
     * the rest: so BACKGROUND streaming cannot take every worker from FRAME work that is queued.
     *
     * <p>A worker <i>runs priority p</i> while the fiber it has mounted holds a job of p anywhere on
     * its stack (top-level, or nested by inline help or a join), whatever the fiber's queue priority;
     * a parked job holds no worker. The cap is checked whenever a worker starts such a job, resumes a
     * fiber whose stack holds one, steals one, or would run one inline (it parks instead).
     *
     * <p>Work-conserving: a worker that finds nothing else to do takes capped work even at the cap,
     * so with only BACKGROUND work queued every worker runs it. Not preemptive: FRAME work that
     * arrives then waits until one of those jobs ends, parks, or passes a {@link Jobs#checkpoint()}
     * (put checkpoints in long BACKGROUND jobs).
     *
     * <p>Default: BACKGROUND at {@code workers - 1} with 2 or more workers; no other cap.
     *
     * @param priority the priority to cap; not null
     * @param n between 1 and the number of workers (checked by {@link #build()}); {@code n} equal
     *          to the worker count means no cap
     * @return this builder
     * @throws IllegalArgumentException if {@code n} is less than 1
     */
    public JobSystemBuilder maxWorkers(Priority priority, int n) {
        Objects.requireNonNull(priority, "priority is null: name the priority to cap, e.g. Priority.BACKGROUND");
        if (n < 1) {
            throw new IllegalArgumentException("maxWorkers(" + priority + ", " + n + "): at least one "
                    + "worker must be able to run " + priority + " jobs, or they would never run; pass 1 "
                    + "or more (the worker count for no cap)");
        }
        maxWorkers[priority.ordinal()] = n;
        return this;
    }

    /** The caps for {@code workerCount} workers (0: none); throws if one exceeds the count. */
    int[] workerCaps(int workerCount) {
        return PriorityCaps.resolve(maxWorkers, workerCount, deterministicSeed != null);
    }

    /**
     * Whether a thread that is not a worker (the game's main thread) runs jobs while it waits in
     * {@link Counter#await()} or {@link JobHandle#join()} without a timeout, instead of sleeping: queued FRAME jobs, first those
     * of the awaited counter (or the awaited handle), on its own stack, as enkiTS's
     * {@code WaitforTask} does. Default true. One such thread at a time helps; while it runs a job it
     * is worker number {@link JobSystem#workerCount()} ({@link JobSystem#workerSlots()} counts it),
     * and the job is "outside a fiber": {@link Jobs#checkpoint()} does nothing there, {@link
     * Jobs#blocking} still hands the call to the blocking threads (the waiting thread helps meanwhile), a
     * wait inside it helps again but only with the jobs that wait depends on (anything else could
     * wait for the job below it on the same stack), and a virtual thread
     * it starts runs on the JDK's scheduler, not on Weft's workers. It runs with an empty ThreadLocal
     * map (the thread's own is put back after). Main-thread jobs keep running between helped jobs.
     * Jobs of other priorities are left to the workers (they may recurse deeper than this thread's
     * stack allows, or block for longer than a frame); a FRAME job runs on the waiting thread's
     * stack, not a worker's 64 MiB one. Deterministic mode never helps. Off, the waiting thread
     * sleeps until the workers are done. Turn it off if a FRAME job may wait for something the
     * waiting thread does only after its own wait returns (a counter it decrements next): run on that
     * thread, the job would wait for its own caller. A wait with a timeout ({@code await(Duration)},
     * {@code join(Duration)}) never helps: a job it ran could not be stopped at the deadline, so a
     * frame watchdog written as {@code frame.join(Duration.ofSeconds(5))} still fires on a hung job.
     *
     * @param on true (the default) to have waiting threads run FRAME jobs, false to have them sleep
     * @return this builder
     */
    public JobSystemBuilder waitersHelp(boolean on) {
        waitersHelp = on;
        return this;
    }

    /**
     * Deterministic mode, to replay a failing schedule: one worker, and every choice the scheduler
     * makes (LIFO or FIFO end of a deque) drawn from a random generator seeded with {@code seed}.
     * The same seed and the same submissions from one job give the same job order, however long the worker
     * idled before. Submit the work from one root job ({@code jobs.submit(() -> { ...; return null; }).join()}):
     * jobs submitted one by one from a thread outside the workers race the worker, which may start the first
     * before the next is queued, so their order can differ from run to run (2 of 15 runs in a probe).
     *
     * @param seed the seed of the scheduler's random choices; the same seed replays the same schedule
     * @return this builder
     */
    public JobSystemBuilder deterministic(long seed) {
        this.deterministicSeed = seed;
        return this;
    }

    /** Tests only: this system's shutdown starts no {@link ShutdownKeeper} (the JVM may exit before it drains). */
    JobSystemBuilder withoutShutdownKeeper() {
        keepsJvmUpWhileShuttingDown = false;
        return this;
    }

    /**
     * Starts the workers.
     *
     * @return the new, started job system
     * @throws IllegalStateException if the JVM lacks {@code --add-opens java.base/java.lang=ALL-UNNAMED}
     *         (class path) or {@code --add-opens java.base/java.lang=dev.weft} (module path)
     */
    public JobSystem build() {
        return new JobSystem(this);
    }

    /**
     * The user's uncaught-failure handler, guarded: whatever it throws is printed to stderr with the
     * failure it was given, never thrown into the job path. A handler that threw used to be called again
     * with its own exception, and the second throw killed the job's fiber before it went back to its
     * pool (close() then waited for it forever), or came out of a waiting thread's await. When even that
     * report fails (the heap exhausted), it is dropped.
     */
    BiConsumer<String, Throwable> guardedFailureHandler() {
        BiConsumer<String, Throwable> handler = uncaughtFailureHandler;
        return (jobName, failure) -> {
            try {
                handler.accept(jobName, failure);
            } catch (Throwable handlerFailure) {
                try {
                    java.io.PrintStream err = System.err;
                    err.println("weft: the uncaught-failure handler threw while reporting the failure of job '"
                            + jobName + "'; the job's failure, then the handler's:");
                    printSafely(failure, err);
                    printSafely(handlerFailure, err);
                } catch (Throwable whileReporting) {
                    // Best effort only: with the heap exhausted even this report can fail (an OutOfMemoryError,
                    // as the handler's own may have been). Nothing of it may reach the job path.
                }
            }
        };
    }

    /** Prints {@code t}'s stack trace; one whose message cannot be built is named by its class instead. */
    private static void printSafely(Throwable t, java.io.PrintStream err) {
        try {
            t.printStackTrace(err);
        } catch (Throwable whilePrinting) {
            err.println(JobFailedException.describeSafely(t) + " (its stack trace could not be printed: "
                    + whilePrinting.getClass().getName() + ")");
        }
    }
}
