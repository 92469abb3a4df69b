package dev.weft;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Questions a running job asks about itself.
 *
 * <pre>{@code
 * JobGroup level = jobs.newGroup("level 3");
 * level.run(() -> {
 *     for (Chunk c : chunks) {
 *         Jobs.checkCancelled();      // stop early when the level is unloaded: level.cancel()
 *         stream(c);
 *     }
 * });
 * }</pre>
 *
 * <h2>ThreadLocal and ScopedValue in jobs</h2>
 * A job runs on a pooled fiber, so per-thread state follows the job, not the thread:
 * <ul>
 *   <li>A {@link ScopedValue} bound inside a job ({@code ScopedValue.where(K, v).run(...)}) is seen by
 *       everything it calls, also after the job parks and resumes on another worker, and is gone when
 *       the scope ends. The next job on the same fiber starts with no binding.</li>
 *   <li>Bindings are <em>not</em> captured at submit: a job sees none of the submitting thread's or
 *       submitting job's bindings, whether it runs on a worker, inline in a {@code join} on the joiner's
 *       stack, or on a waiting thread's stack ({@link JobSystemBuilder#waitersHelp}); the joiner's or
 *       waiter's own bindings are back when it returns. Pass what a job needs as captured variables, or
 *       bind it inside the job. (StructuredTaskScope, which does capture, forks plain threads.)</li>
 *   <li>Main-thread jobs ({@link JobSystem#onMainThread}) are the main thread's own code: they see its
 *       ThreadLocals and bindings.</li>
 *   <li>ThreadLocals set in a job are cleared when it ends; a job run inline sees none of the joiner's.</li>
 *   <li>{@link InheritableThreadLocal} values are not inherited by fibers: no job sees those of the thread
 *       that built the job system (nor of the thread that submitted the job), its first job on a fiber
 *       included. One set inside a job is cleared with the job's other ThreadLocals.</li>
 *   <li>What a job sets with {@link Thread#setName}, {@link Thread#setContextClassLoader} or
 *       {@link Thread#setUncaughtExceptionHandler} on its own thread lasts until it ends: the fiber's own
 *       name, context class loader (that of the thread that built the job system) and handler (none) are
 *       put back, so no later job on that fiber sees a mod's class loader or a job's log name. A job run
 *       inline by a join starts with the fiber's own, not the joiner's, and the joiner's are back when it
 *       returns. A job a waiting thread runs ({@link JobSystemBuilder#waitersHelp}) sees that thread's, and
 *       leaves them as they were. Set them inside the job that needs them (they cost a reference compare
 *       per job when unchanged).</li>
 * </ul>
 *
 * <h2>Virtual threads started in a job</h2>
 * A virtual thread you start inside a job ({@code Thread.ofVirtual().start(...)},
 * {@code Thread.startVirtualThread}, {@code Executors.newVirtualThreadPerTaskExecutor()}, or a library's
 * HTTP client or logger doing so) runs on the JVM's own virtual-thread scheduler, as if started outside
 * Weft, not on Weft's workers: it takes no worker from frame jobs, a block or sleep in it parks no job, and
 * it runs on after the job system has closed ({@code close()} does not wait for it). The same holds for
 * the virtual threads it starts. It is not a job: {@link #inFiber()} is false on it and it waits on
 * counters and handles as any outside thread does. A job may join it ({@code Thread.join} parks the job's
 * fiber like any wait).
 */
public final class Jobs {
    private Jobs() {}

    /**
     * True if the current thread is a Weft fiber (that is, running a job on a worker).
     *
     * @return true on a Weft fiber, false on any other thread (a waiting thread running a job included)
     */
    public static boolean inFiber() {
        return Fiber.current() != null;
    }

    /**
     * The index of the worker running the current job: 0 to {@code workerCount() − 1} on the workers,
     * and {@code workerCount()} on a thread that runs the job while it waits ({@link
     * JobSystemBuilder#waitersHelp}); so size per-worker buffers by {@link JobSystem#workerSlots()}. A
     * job that waits may resume on another worker, so read it again after a wait.
     *
     * @return the worker's index, from 0 to {@link JobSystem#workerSlots()} − 1
     * @throws IllegalStateException outside a job
     */
    public static int workerIndex() {
        Fiber f = Fiber.current();
        if (f != null) {
            return f.worker().index;
        }
        WaitingHelp h = WaitingHelp.current();
        if (h != null) {
            return h.workerIndex;
        }
        return requireFiber("workerIndex").worker().index;
    }

    /**
     * The current job's name.
     *
     * @return the name given at submission, or a default made from the job when it was given none
     * @throws IllegalStateException outside a job
     */
    public static String currentJobName() {
        JobNode j = runningOnCurrentThread();
        return j == null ? "(none)" : j.name();
    }

    /**
     * The job this thread runs now: a fiber's, one a waiting thread runs as help, or a main-thread job;
     * null on a fiber between jobs. On any other thread it throws.
     */
    static JobNode runningOnCurrentThread() {
        Fiber f = Fiber.current();
        if (f != null) {
            return f.currentJob;
        }
        WaitingHelp seat = WaitingHelp.current();
        if (seat != null) {
            return seat.runningJob;
        }
        JobHandle<?> onMainThread = MainThreadMailbox.runningOnCurrentThread();
        if (onMainThread != null) {
            return onMainThread;
        }
        throw notInAJob("currentJobName");
    }

    /**
     * True if the current job (a main-thread job included) was asked to stop: its handle's
     * {@code cancel()}, its group's, or the job system's {@code shutdownNow()}. False outside a job.
     *
     * @return true once the current job's cancellation was requested; false outside a job
     */
    public static boolean isCancelled() {
        Fiber f = Fiber.current();
        if (f != null) {
            return f.cancellationRequested();
        }
        WaitingHelp seat = WaitingHelp.current();       // a job a waiting thread runs is asked the same way
        if (seat != null) {
            return seat.cancellationRequested();
        }
        // A main-thread job too (an upload in slices, say): its handle's or group's cancel, or shutdownNow,
        // read false here before, though JobHandle.cancel() says a running job sees it.
        JobHandle<?> onMainThread = MainThreadMailbox.runningOnCurrentThread();
        return onMainThread != null && onMainThread.stopRequested();
    }

    /**
     * A cooperative preemption point for a long job: if work of a higher priority than the current job's
     * is queued, the job's fiber yields (it is queued again at its own priority and resumes later,
     * possibly on another worker), so the urgent work starts now instead of when this job ends. Otherwise
     * it returns at once, at the cost of about one volatile load: call it often. Outside a job it does
     * nothing; a {@link Priority#FRAME} job never yields (nothing is above it).
     *
     * <pre>{@code
     * jobs.submit(Priority.BACKGROUND, "decode rock", () -> {
     *     byte[] obj = Jobs.blocking(() -> Files.readAllBytes(path));   // fiber parks on I/O
     *     MeshBuilder mesh = new MeshBuilder();
     *     for (int line = 0; line < lines; line++) {
     *         mesh.parse(obj, line);
     *         if ((line & 1023) == 0) {
     *             Jobs.checkpoint();   // a FRAME job queued now waits at most ~1024 lines, not the whole mesh
     *         }
     *     }
     *     return mesh.build();
     * });
     * }</pre>
     *
     * <p><b>Where to put them:</b> in the loops of long CPU work at lower priority (decoding, parsing,
     * building acceleration structures, baking), every 0.1–1 ms of work; the interval is the longest a
     * more urgent job waits for this worker. Not inside a lock or {@code synchronized} block held across
     * the call (another job could need it while we are queued), and not where the job holds a
     * per-worker buffer by {@link #workerIndex()}: it may resume on another worker. Together with
     * {@link JobSystemBuilder#maxWorkers} (which keeps lower-priority work off some workers) this is
     * Weft's answer to non-preemptive scheduling. {@link JobSystemStats#checkpointYields()} counts the
     * yields.
     *
     * <p><b>While more urgent work never lets up</b> (every worker always has a FRAME job queued), a
     * checkpointing job still advances, but only on {@link Priority}'s starvation turn (one pick in 128),
     * and each turn is worth one checkpoint interval: it yields again at its next checkpoint. Measured: 100 ms
     * of work checkpointing every 20 µs took 46 s under such a flood, every 200 µs 3.4 s. Frames that leave
     * the workers idle between them do not pay this; a saturated frame does, so keep checkpoints at the
     * coarse end (about 1 ms) for work that must finish while frames are heavy.
     */
    public static void checkpoint() {
        Fiber f = Fiber.current();
        if (f != null) {
            f.checkpoint();
        }
    }

    /**
     * True if {@link #checkpoint()} would yield now: more urgent work is queued. The same one-load fast
     * path; for a job that must do something around a yield (give back a lowered thread priority, flush a
     * per-worker buffer) before calling {@code checkpoint()}. False outside a job.
     *
     * @return true if more urgent work is queued and the current job would yield; false outside a job
     */
    public static boolean shouldYield() {
        Fiber f = Fiber.current();
        return f != null && f.shouldYield();
    }

    /** Throws {@link JobCancelledException} if {@link #isCancelled()}. */
    public static void checkCancelled() {
        if (isCancelled()) {
            throw new JobCancelledException("job '" + currentJobName() + "' was cancelled");   // isCancelled found one
        }
    }

    /**
     * Runs a blocking call (file or socket I/O, a native library that blocks) without holding a worker: in
     * a job, the call runs on one of the job system's blocking threads (platform threads named
     * {@code <system>-blocking-N}, made on first use, at most 64 at once, stopped when the job system
     * terminates) while the job's fiber parks, so the worker runs other jobs meanwhile; the fiber resumes,
     * on whichever worker is free, with the call's result or the exception it threw (the same instance, an
     * {@code IOException} stays one). In a job that a waiting thread runs ({@link JobSystemBuilder#waitersHelp})
     * the call goes to the same threads and that thread waits, helping meanwhile, so I/O never lands on the
     * game's main thread. Outside a job it simply runs the call on the calling thread. Weft's
     * answer to marl's {@code blocking_call} and ForkJoinPool's {@code ManagedBlocker}.
     *
     * <pre>{@code
     * JobHandle<Mesh> mesh = jobs.submit(() -> {
     *     byte[] obj = Jobs.blocking(() -> Files.readAllBytes(Path.of("rock.obj")));   // fiber parks
     *     return ObjParser.parse("rock.obj", obj);                                    // back on a worker
     * });
     * }</pre>
     *
     * <p>If the job is cancelled while it waits ({@link JobHandle#cancel()}, its group's cancel,
     * {@link JobSystem#shutdownNow()}), the wait ends at once with {@link JobCancelledException}; a call
     * already running runs to its end on its thread and its result is dropped, and a call its executor has
     * not started yet never starts. The watchdog reports a long wait here as a
     * wait on {@code Jobs.blocking(<call>)}; a blocking call made outside {@code Jobs.blocking} is still
     * reported as a job holding its worker.
     *
     * <p>The call may wait for a job (submit one and join it) that makes a blocking call of its own: while
     * one of these threads waits on a counter or handle, the pool may run one more (up to 256 such waits at
     * once, as ForkJoinPool's {@code ManagedBlocker} compensates), so the inner call is not stuck behind
     * the outer ones. Past that many, such calls can again wait for ever: join the job from the job instead,
     * after this call returns.
     *
     * <p>At most 64 calls run at once (plus those compensating waits); more queue. Calls that wait for one
     * another (a latch or barrier every call must reach) therefore never return past 64: a call queued that
     * long says so on stderr after 2 s, once per job system. Give such calls threads of your own with
     * {@link #blocking(Executor, Callable)}.
     *
     * @param <T> the call's result type
     * @param call the blocking call; not null
     * @return what the call returned
     * @throws Exception whatever the call threw
     * @throws JobCancelledException if the job was cancelled while waiting
     */
    public static <T> T blocking(Callable<T> call) throws Exception {
        Objects.requireNonNull(call, "call is null: pass the blocking work, e.g. () -> Files.readAllBytes(path)");
        Fiber f = Fiber.current();
        if (f != null) {
            return await(f.scheduler.blockingPool.executor(), call, null);
        }
        WaitingHelp seat = WaitingHelp.current();    // a job a waiting thread runs: keep I/O off that thread
        if (seat != null) {
            return await(seat.scheduler.blockingPool.executor(), call, seat.scheduler);
        }
        return call.call();
    }

    /**
     * {@link #blocking(Callable)} on threads of your choosing: an I/O lane that limits how many reads hit
     * the disk at once, or a thread that owns a native handle. Outside a job the call runs on the caller.
     *
     * @param <T> the call's result type
     * @param executor the threads to run the call on while the job's fiber parks; not null
     * @param call the blocking call; not null
     * @return what the call returned
     * @throws RejectedExecutionException if {@code executor} refuses the call (say, it was shut down)
     * @throws Exception whatever the call threw
     * @throws JobCancelledException if the job was cancelled while waiting
     */
    public static <T> T blocking(Executor executor, Callable<T> call) throws Exception {
        Objects.requireNonNull(executor, "executor is null: pass where the call runs, or use blocking(call)");
        Objects.requireNonNull(call, "call is null: pass the blocking work, e.g. () -> Files.readAllBytes(path)");
        if (Fiber.current() != null) {
            return await(executor, call, null);
        }
        WaitingHelp seat = WaitingHelp.current();
        if (seat != null) {
            return await(executor, call, seat.scheduler);
        }
        return call.call();
    }

    private static <T> T await(Executor executor, Callable<T> call, Scheduler helpWhileWaiting) throws Exception {
        BlockingCall<T> blocking = new BlockingCall<>(call, helpWhileWaiting);
        try {
            executor.execute(blocking);
        } catch (RejectedExecutionException e) {
            throw new RejectedExecutionException("Jobs.blocking: " + executor + " refused the call " + call
                    + " (was it shut down?); the call did not run", e);
        }
        return blocking.await();
    }

    private static Fiber requireFiber(String call) {
        Fiber f = Fiber.current();
        if (f == null) {
            throw notInAJob(call);
        }
        return f;
    }

    private static IllegalStateException notInAJob(String call) {
        return new IllegalStateException("Jobs." + call + "() works only inside a job running on a Weft "
                + "fiber, but was called on " + Thread.currentThread() + "; pass the value in from the job instead");
    }
}
