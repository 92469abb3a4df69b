package dev.weft;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * The result token of a value-returning job ({@link JobSystem#submit}) or a main-thread job
 * ({@link JobSystem#onMainThread}).
 *
 * <pre>{@code
 * JobHandle<Mesh> mesh = jobs.submit(Priority.BACKGROUND, "load rock", () -> loadMesh("rock.obj"));
 * JobHandle<Integer> vbo = jobs.onMainThread(() -> upload(mesh.join()));  // decode on a worker, upload on GL
 * int id = vbo.join();
 * }</pre>
 *
 * <p>{@link #join()} parks the calling fiber, blocks a plain thread, and on the thread that runs
 * main-thread jobs keeps running them while it waits. A job ends in exactly one of three ways: with a
 * value, with a failure ({@link JobFailedException}, naming the job, wraps it), or cancelled
 * ({@link JobCancelledException}): cancelled before it started, or it ended by throwing
 * {@code JobCancelledException} after {@link #cancel()} asked it to stop.
 *
 * <p>If the job was given a {@link Counter}, the handle has ended (and its
 * {@link #toCompletableFuture() future} is complete) before that counter is decremented: once the
 * counter is at zero, every handle it counts is done.
 *
 * @param <T> the result type
 */
public final class JobHandle<T> extends JobNode {
    private final Callable<T> callable;
    private final Scheduler scheduler;
    private final Counter done;            // 1 until the job ends; join waits on it
    private T result;                      // written before done is decremented (which publishes it)
    private Throwable failure;             // likewise
    private boolean cancelled;             // likewise
    private volatile CompletableFuture<T> future;

    JobHandle(Scheduler scheduler, String name, Priority priority, Callable<T> callable, Counter counter,
              JobGroup group) {
        this.scheduler = scheduler;
        this.callable = callable;
        this.name = name;
        this.priority = priority.ordinal();
        this.counter = counter;
        this.group = group;
        this.done = new Counter(name);
        this.done.add(1);
    }

    /** The job's name. */
    public String name() {
        return super.name();
    }

    /** True once the job has ended: value, failure or cancellation. */
    public boolean isDone() {
        return done.value() == 0;
    }

    /** True if the job was cancelled before it started, or ended by honouring a cancellation. */
    public boolean isCancelled() {
        return isDone() && cancelled;
    }

    /**
     * Waits for the job and returns its value.
     *
     * @throws JobFailedException if the job threw (the cause is what it threw)
     * @throws JobCancelledException if the job was cancelled
     * @throws IllegalStateException if a job joins itself (it would wait forever)
     */
    public T join() {
        checkNotSelf();
        done.await();
        return report();
    }

    /**
     * Waits at most {@code timeout} for the job.
     *
     * @throws TimeoutException if it has not ended by then (the job keeps going)
     */
    public T join(Duration timeout) throws TimeoutException {
        checkNotSelf();
        if (!done.await(timeout)) {
            throw new TimeoutException("job '" + name() + "' did not finish within " + timeout);
        }
        return report();
    }

    /** The value if the job ended with one, else {@code otherwise}; never waits. */
    public T getNow(T otherwise) {
        if (!isDone() || failure != null || cancelled) {
            return otherwise;
        }
        return result;
    }

    /**
     * Cancels the job. If it has not started it never will: it ends cancelled, its counter is still
     * decremented and its waiters are woken, and this returns true. If it is running, this asks it to
     * stop — {@link Jobs#isCancelled()} turns true inside it and a wait it is parked in throws
     * {@link JobCancelledException} — and returns false. A job that already ended is unaffected.
     */
    public boolean cancel() {
        if (tryCancel()) {
            Scheduler.completeCancelled(scheduler, this);   // we won the CAS: complete it, once
            return true;
        }
        if (state() == RUNNING) {
            requestCancel();                 // volatile write, then read the runner's wait: see Fiber.beginWait
            Fiber f = runner();
            if (f != null) {
                f.cancelWaitOf(this);
            }
        }
        return false;
    }

    /**
     * A {@link CompletableFuture} that completes when this job ends, for code written for the JDK. Made
     * on first call; completing it does not affect the job, and cancelling it does not cancel the job.
     */
    public CompletableFuture<T> toCompletableFuture() {
        CompletableFuture<T> f = future;
        if (f == null) {
            f = new CompletableFuture<>();
            future = f;                      // volatile write, then re-check isDone: see complete()
            if (isDone()) {
                completeFuture(f);
            }
        }
        return f;
    }

    @Override
    public String toString() {
        String s = !isDone() ? (state() == RUNNING ? "running" : "queued")
                : cancelled ? "cancelled" : failure != null ? "failed: " + failure : "done";
        return "JobHandle[" + name() + ", " + s + "]";
    }

    @Override
    void execute() throws Throwable {
        result = callable.call();
    }

    @Override
    void complete(Throwable failure, boolean cancelled) {
        this.cancelled = cancelled;
        this.failure = failure;
        // The handle ends before its counter does: whoever sees the counter at zero may read every
        // handle it counts (isDone, getNow, the future) and must find it ended.
        done.decrement();                    // release: publishes result/failure/cancelled to joiners
        CompletableFuture<T> f = future;     // volatile read after the decrement: see toCompletableFuture
        if (f != null) {
            completeFuture(f);
        }
        Scheduler.completeCounter(this, counter, failure);
    }

    @Override
    String defaultName() {
        return callable.getClass().getName();
    }

    private void checkNotSelf() {
        Fiber f = Fiber.current();
        if (f != null && f.currentJob == this) {
            throw new IllegalStateException("job '" + name() + "' joins its own handle and would wait "
                    + "forever; return the value instead of joining it");
        }
        if (MainThreadMailbox.isRunningOnCurrentThread(this)) {
            throw new IllegalStateException("main-thread job '" + name() + "' joins its own handle and "
                    + "would wait forever; return the value instead of joining it");
        }
    }

    private T report() {
        if (cancelled) {
            throw new JobCancelledException("job '" + name() + "' was cancelled");
        }
        if (failure != null) {
            throw new JobFailedException(name(), failure);
        }
        return result;
    }

    private void completeFuture(CompletableFuture<T> f) {
        if (cancelled) {
            f.completeExceptionally(new JobCancelledException("job '" + name() + "' was cancelled"));
        } else if (failure != null) {
            f.completeExceptionally(new JobFailedException(name(), failure));
        } else {
            f.complete(result);
        }
    }
}
