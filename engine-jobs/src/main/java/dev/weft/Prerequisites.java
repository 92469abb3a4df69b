package dev.weft;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * Jobs that start when other work has completed, with nothing parked meanwhile: the job is queued by
 * whoever completes its last prerequisite (UE::Tasks prerequisites, enkiTS dependencies, Taskflow's
 * {@code precede}). Made by {@link JobSystem#after(Counter...)}, {@link JobSystem#after(JobHandle...)} and
 * the same methods of {@link JobGroup}.
 *
 * <pre>{@code
 * Counter physics = new Counter("physics");
 * jobs.parallelFor(Priority.FRAME, 0, bodies.length, 256, (s, e, w) -> integrate(s, e), physics);
 * JobHandle<Pose[]> poses = jobs.submit(Priority.FRAME, "animate", () -> animate(dt));
 *
 * Counter frame = new Counter("frame");
 * jobs.after(physics).and(poses).run(Priority.FRAME, "skin", () -> skin(poses.join()), frame);
 * jobs.after(physics).parallelFor(Priority.FRAME, 0, bodies.length, 256, (s, e, w) -> cull(s, e), frame);
 * frame.await();                         // counts both from the moment they were submitted
 * }</pre>
 *
 * <p>A prerequisite is complete when its counter is at zero (a {@link Counter}) or the job has ended (a
 * {@link JobHandle}). Then:
 * <ul>
 *   <li>if a prerequisite handle was cancelled, the job is cancelled (it never runs; its counter is
 *       decremented and its handle reports cancelled);</li>
 *   <li>else if a prerequisite failed (a handle's job threw, or a counter recorded a failure), the job
 *       fails without running its body: whoever waits on it gets a {@link JobFailedException} whose cause
 *       names the prerequisite (the handle's job, or the counter) and carries the root cause;</li>
 *   <li>else it is queued at its priority, in its group, as if submitted then.</li>
 * </ul>
 * Its counter goes up at the call, so a wait on that counter waits for it too. Its group is the one given
 * ({@link JobGroup#after}) or inherited from the submitting job, as with {@code run}; a group cancelled
 * while the job waits for its prerequisites cancels it when they complete (not before).
 * {@link JobSystem#shutdownNow()} cancels every job still waiting for its prerequisites at once (its
 * counter and handle complete) and lists it with the other jobs that never ran. A graceful close still
 * runs one whose prerequisites complete while jobs are running, but does not wait for prerequisites that
 * nothing in the system will complete (a counter you decrement by hand); such a job is cancelled when
 * they complete after termination.
 *
 * <p>A {@code Prerequisites} is an immutable list: reuse it for many jobs; {@code and} returns a new one.
 * Cost: one wait node per prerequisite, pushed on its counter (no lock), and one atomic decrement when
 * each completes; the decrementer that completes the last one queues the job.
 */
public final class Prerequisites {
    private static final Counter[] NO_COUNTERS = {};
    private static final JobHandle<?>[] NO_HANDLES = {};

    private final Scheduler scheduler;
    private final JobGroup group;              // null: inherited from the submitting job
    private final Counter[] counters;
    private final JobHandle<?>[] handles;

    private Prerequisites(Scheduler scheduler, JobGroup group, Counter[] counters, JobHandle<?>[] handles) {
        this.scheduler = scheduler;
        this.group = group;
        this.counters = counters;
        this.handles = handles;
    }

    static Prerequisites ofCounters(Scheduler s, JobGroup group, Counter[] counters) {
        return new Prerequisites(s, group, checked(counters, "counter"), NO_HANDLES);
    }

    static Prerequisites ofHandles(Scheduler s, JobGroup group, JobHandle<?>[] handles) {
        return new Prerequisites(s, group, NO_COUNTERS, checked(handles, "handle"));
    }

    private static <T> T[] checked(T[] items, String kind) {
        if (items == null) {
            throw new NullPointerException("prerequisites are null: pass the " + kind + "s to wait for");
        }
        T[] copy = items.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] == null) {
                throw new NullPointerException("prerequisite " + kind + " " + i + " is null");
            }
        }
        return copy;
    }

    /**
     * These prerequisites and {@code more} counters.
     *
     * @param more further counters that must reach zero; none may be null
     * @return new prerequisites with all of these; this object is unchanged
     */
    public Prerequisites and(Counter... more) {
        Counter[] add = checked(more, "counter");
        Counter[] all = Arrays.copyOf(counters, counters.length + add.length);
        System.arraycopy(add, 0, all, counters.length, add.length);
        return new Prerequisites(scheduler, group, all, handles);
    }

    /**
     * These prerequisites and {@code more} handles.
     *
     * @param more further jobs that must have ended; none may be null
     * @return new prerequisites with all of these; this object is unchanged
     */
    public Prerequisites and(JobHandle<?>... more) {
        JobHandle<?>[] add = checked(more, "handle");
        JobHandle<?>[] all = Arrays.copyOf(handles, handles.length + add.length);
        System.arraycopy(add, 0, all, handles.length, add.length);
        return new Prerequisites(scheduler, group, counters, all);
    }

    /**
     * Runs {@code job} once every prerequisite completed; {@code counter} (may be null) counts it from
     * now, as {@link JobSystem#run(Priority, String, Job, Counter)} does.
     *
     * @param priority the job's priority once it is released; not null
     * @param name the job's name in failures, traces and watchdog reports; may be null
     * @param job the work to run; it is not run if a prerequisite failed, and the failure is recorded in its
     *            place; not null
     * @param counter incremented now, decremented when the job ends or is skipped; may be null
     * @throws java.util.concurrent.RejectedExecutionException as {@code run} (nothing is then registered)
     * @throws IllegalArgumentException if {@code counter} is one of the prerequisite counters (the job
     *         would wait for itself)
     */
    public void run(Priority priority, String name, Job job, Counter counter) {
        Objects.requireNonNull(job, "job is null: pass the work to run");
        Objects.requireNonNull(priority, "priority is null: use Priority.NORMAL for ordinary jobs");
        refuseOwnCounter(counter, name);
        PooledJob j = new PooledJob();                 // not from a free list: it may wait for long
        Release release = new Release(this, j);
        j.job = () -> {
            release.throwIfPrerequisiteFailed();
            job.run();
        };
        j.name = name;
        j.priority = priority.ordinal();
        j.counter = counter;
        j.group = group;
        release.register("run");
    }

    /**
     * {@link #submit(Priority, String, Callable, Counter)} with no counter.
     *
     * @param <T> the result type
     * @param priority the job's priority once it is released; not null
     * @param name the job's name in failures, traces and watchdog reports; may be null
     * @param callable the work whose result the handle gives; not null
     * @return the job's handle, returned before the prerequisites complete
     */
    public <T> JobHandle<T> submit(Priority priority, String name, Callable<T> callable) {
        return submit(priority, name, callable, null);
    }

    /**
     * Submits {@code callable} to run once every prerequisite completed, and returns its handle at once
     * (a {@link JobHandle#join()} waits for the prerequisites too; {@link JobHandle#cancel()} before they
     * complete cancels it, and it is never queued).
     *
     * @param <T> the result type
     * @param priority the job's priority once it is released; not null
     * @param name the job's name in failures, traces and watchdog reports; may be null
     * @param callable the work whose result the handle gives; not run if a prerequisite failed (the handle
     *                 then fails with that failure); not null
     * @param counter incremented now, decremented when the job ends; may be null
     * @return the job's handle, returned before the prerequisites complete
     * @throws IllegalArgumentException if {@code counter} is one of the prerequisite counters (the job
     *         would wait for itself)
     */
    public <T> JobHandle<T> submit(Priority priority, String name, Callable<T> callable, Counter counter) {
        Objects.requireNonNull(callable, "callable is null: pass the work to run");
        Objects.requireNonNull(priority, "priority is null: use Priority.NORMAL for ordinary jobs");
        refuseOwnCounter(counter, name);
        Release[] release = new Release[1];            // the callable needs the release, the release the handle
        JobHandle<T> h = new JobHandle<>(scheduler, name, priority, () -> {
            release[0].throwIfPrerequisiteFailed();
            return callable.call();
        }, counter, group);
        release[0] = new Release(this, h);
        release[0].register("submit");
        return h;
    }

    /**
     * Starts {@code body} over {@code [from, to)} as {@link JobSystem#parallelFor(Priority, int, int, int,
     * RangeJob, Counter)} does, once every prerequisite completed. If one failed, the body runs on no range
     * and {@code counter} records the failure once. An empty range runs nothing but still holds
     * {@code counter} until the prerequisites complete, and records their failure the same way.
     *
     * @param priority the priority of the ranges' jobs; not null
     * @param from the first index, inclusive
     * @param to the end index, exclusive; not less than {@code from}
     * @param grain the largest number of indices one call of {@code body} gets; at least 1
     * @param body called with each range {@code [start, end)} and the index of the worker running it
     * @param counter held up until every range has run (or the failure is recorded); not null, and not one
     *                of the prerequisite counters
     * @throws IllegalArgumentException if {@code counter} is one of the prerequisite counters (the ranges
     *         would wait for themselves)
     */
    public void parallelFor(Priority priority, int from, int to, int grain, RangeJob body, Counter counter) {
        Objects.requireNonNull(counter, "counter is null: parallelFor needs one to say when every range ran");
        RangeNode.checkArguments(priority, from, to, grain, body);
        refuseOwnCounter(counter, "parallelFor");
        if (to == from) {
            // Nothing to run, but the counter still waits for the prerequisites and records their failure:
            // a graph's cull over zero visible objects must not let the nodes after it start early.
            run(priority, "parallelFor [" + from + ", " + to + ")", () -> { }, counter);
            return;
        }
        RangeNode[] root = new RangeNode[1];
        Release[] release = new Release[1];
        root[0] = scheduler.pendingRange(priority, from, to, grain, (start, end, worker) -> {
            if (release[0].claimRangeFailure()) {      // failed prerequisite: throw once, skip every range
                release[0].throwIfPrerequisiteFailed();
            } else if (release[0].failure == null) {
                body.run(start, end, worker);
            }
        }, counter);
        root[0].group = group;
        release[0] = new Release(this, root[0]);
        release[0].register("parallelFor");
    }

    /**
     * Refuses a job counted by one of its own prerequisite counters ({@code after(frame).run(..., frame)}):
     * the job adds its unit to that counter at the call, so the counter reaches zero only after the job
     * ended, and the job is released only when the counter is at zero. Accepted, it never ran and every
     * wait on the counter hung, silently. Checked before anything is added or registered, so a refused
     * call leaves no trace. One identity compare per prerequisite counter, at submission only.
     */
    private void refuseOwnCounter(Counter counter, String jobName) {
        if (counter == null) {
            return;
        }
        for (Counter c : counters) {
            if (c == counter) {
                throw new IllegalArgumentException("job '" + (jobName != null ? jobName : "(unnamed)")
                        + "' would wait for counter '" + counter.name() + "' to reach zero while that counter "
                        + "counts the job itself, so it would never start and the counter never drain; count "
                        + "the job with another counter (for example one per frame that waits for both), or "
                        + "leave '" + counter.name() + "' out of its prerequisites");
            }
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Prerequisites[");
        for (Counter c : counters) {
            sb.append(c).append(", ");
        }
        for (JobHandle<?> h : handles) {
            sb.append(h).append(", ");
        }
        return sb.append(']').toString().replace(", ]", "]");
    }

    /**
     * One job waiting for its prerequisites. {@code remaining} is set to the prerequisite count before the
     * first continuation is registered; each continuation runs once (the wait node's fire CAS), so the
     * getAndAdd that takes it to zero is exactly one, after every prerequisite completed, and it releases
     * the job (a prerequisite already complete runs its continuation inline, during registration). The
     * release writes {@link #failure} before the queue push that publishes the job; the job reads it when
     * it runs (happens-before through the push, or through the steal).
     */
    static final class Release implements Runnable {
        private static final java.lang.invoke.VarHandle REMAINING;
        private static final java.lang.invoke.VarHandle RANGE_FAILURE_CLAIMED;
        private static final java.lang.invoke.VarHandle NODE = java.lang.invoke.MethodHandles
                .arrayElementVarHandle(WaitNode[].class);

        static {
            try {
                java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.lookup();
                REMAINING = l.findVarHandle(Release.class, "remaining", int.class);
                RANGE_FAILURE_CLAIMED = l.findVarHandle(Release.class, "rangeFailureClaimed", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Prerequisites of;
        private final JobNode job;
        private volatile int remaining;
        private volatile boolean rangeFailureClaimed;
        JobFailedException failure;                    // plain: written before the publishing push
        // The continuation nodes, one per prerequisite (null: ran at registration), for drop(). Each element is
        // stored volatile by the registrar, then it reads `dropped`; drop() writes `dropped`, then reads each
        // element (volatile): a Dekker pair, so every node registered is abandoned by one side or both.
        private final WaitNode[] nodes;
        private volatile boolean dropped;

        Release(Prerequisites of, JobNode job) {
            this.of = of;
            this.job = job;
            this.nodes = new WaitNode[of.counters.length + of.handles.length];
        }

        void register(String what) {
            of.scheduler.pendingJobs.accept(job, this, what);   // may throw RejectedExecutionException: none registered
            int count = nodes.length;
            if (count == 0) {
                release();                             // after() with no prerequisites: queued at once
                return;
            }
            remaining = count;                         // before any continuation can run (volatile write)
            int i = 0;
            for (Counter c : of.counters) {
                NODE.setVolatile(nodes, i++, c.whenZero(this));
            }
            for (JobHandle<?> h : of.handles) {
                NODE.setVolatile(nodes, i++, h.doneCounter().whenZero(this));
            }
            if (dropped) {                             // cancelled while we registered (shutdownNow): see drop()
                drop();
            }
        }

        /**
         * The job was cancelled while pending, by whoever took it out of {@link PendingJobs} (its handle's
         * {@code cancel()}, {@code shutdownNow}): abandons its continuation nodes, each of which drops this
         * release (and with it the job and its closure) if the abandon CAS beats the fire CAS. A
         * prerequisite that never completes (a level-streamed counter) then keeps only a dead node, which its
         * counter's next pushes unlink. A fire that won runs {@link #run} as before, and the release finds
         * the job taken. Any thread; idempotent (each node leaves WAITING once).
         */
        void drop() {
            dropped = true;
            for (int i = 0; i < nodes.length; i++) {
                WaitNode n = (WaitNode) NODE.getVolatile(nodes, i);
                if (n != null) {
                    n.abandon();
                }
            }
        }

        /**
         * Gives {@code action} each continuation node still WAITING: a prerequisite not completed, of a job
         * not dropped. For {@link WaitCycle} (the watchdog's thread, or {@code findWaitCycles}'s caller),
         * off the job path: volatile reads of each element (stored volatile by the registrar) and of each
         * node's state. Racy: a node read WAITING may fire just after; WaitCycle checks again.
         */
        void forEachWaiting(java.util.function.Consumer<WaitNode> action) {
            for (int i = 0; i < nodes.length; i++) {
                WaitNode n = (WaitNode) NODE.getVolatile(nodes, i);
                if (n != null && n.isWaiting()) {
                    action.accept(n);
                }
            }
        }

        /** One prerequisite completed: the continuation registered on its counter ran. */
        @Override
        public void run() {
            if ((int) REMAINING.getAndAdd(this, -1) == 1) {
                release();
            }
        }

        private void release() {
            try {
                for (JobHandle<?> h : of.handles) {
                    if (h.isCancelled()) {
                        job.requestCancel();           // the worker that takes it cancels it (JobNode.admit)
                        break;
                    }
                }
                failure = firstFailure();
                of.scheduler.pendingJobs.release(job);
            } catch (Throwable t) {
                // Must not escape into the decrementer's wake-up walk. In practice the heap is exhausted (the
                // injection queue's offer linking a chunk, a failure's description): the job fails as one
                // that cannot start (SYNCHRONIZATION.md §7), retried while memory is short. It used to be
                // cancelled and reported here without a guard, so the report's own OutOfMemoryError escaped
                // into the decrement and, when the cancel threw too, the job's counter stayed up.
                HeapExhaustion.notQueued(of.scheduler, job, t);
            }
        }

        private JobFailedException firstFailure() {
            for (JobHandle<?> h : of.handles) {
                Throwable f = h.failureCause();
                if (f != null) {
                    return PrerequisiteFailed.of(h.name(), false, f);
                }
            }
            for (Counter c : of.counters) {
                JobFailedException f = c.failure();
                if (f != null) {
                    return PrerequisiteFailed.of(c.name(), !c.standsForItsJob, f);
                }
            }
            return null;
        }

        void throwIfPrerequisiteFailed() {
            JobFailedException f = failure;
            if (f != null) {
                throw f;
            }
        }

        /** True for the first range of a failed parallelFor only: the failure is recorded once. */
        boolean claimRangeFailure() {
            return failure != null && RANGE_FAILURE_CLAIMED.compareAndSet(this, false, true);
        }
    }

    /**
     * What a job skipped for a failed prerequisite throws. Its cause is the failure where the chain of
     * prerequisites started, however long the chain: each level used to wrap the one before, so a chain of
     * 3,000 {@code after(...)} jobs gave a cause chain 3,000 deep, and printing it threw StackOverflowError.
     */
    private static final class PrerequisiteFailed extends JobFailedException {
        private static final long serialVersionUID = 1L;
        private final String firstFailed;            // the job (or counter) where the chain failed
        // A counter prerequisite is named as one: "job 'physics' failed: job 'step', which it waited on,
        // failed" read as if a job 'physics' had waited on 'step', where 'physics' counts 'step'.
        private final boolean counter;

        private PrerequisiteFailed(String prerequisite, boolean counter, String firstFailed, Throwable origin) {
            super(prerequisite, prerequisite.equals(firstFailed)
                    ? (counter ? "counter '" + prerequisite + "' counts a job that failed: " + (origin instanceof
                            JobFailedException j ? j.getMessage() : describeSafely(origin))
                            : messageFor(prerequisite, origin))
                    : (counter ? "counter '" + prerequisite + "' counts a job that" : "job '" + prerequisite + "'")
                            + " failed: it did not run, a prerequisite failed (first in the chain: "
                            + messageFor(firstFailed, origin) + ")", origin);
            this.firstFailed = firstFailed;
            this.counter = counter;
        }

        @Override
        String source() {
            return counter ? "counter '" + jobName() + "'" : super.source();
        }

        @Override
        String chainStart() {
            return firstFailed;
        }

        /** {@code failure} of {@code prerequisite}; if it came from a prerequisite itself, the chain's start. */
        static PrerequisiteFailed of(String prerequisite, boolean counter, Throwable failure) {
            Throwable t = failure;
            for (int depth = 0; t != null && depth < 3; depth++, t = t.getCause()) {   // a counter's or handle's wrapper
                if (t instanceof PrerequisiteFailed skipped) {
                    return new PrerequisiteFailed(prerequisite, counter, skipped.firstFailed, skipped.getCause());
                }
            }
            if (failure instanceof JobFailedException recorded && prerequisite.equals(recorded.jobName())
                    && recorded.getCause() != null) {
                failure = recorded.getCause();   // a counter named as its job: not "job 'x' failed: job 'x' ..."
            }
            return new PrerequisiteFailed(prerequisite, counter, prerequisite, failure);
        }
    }
}
