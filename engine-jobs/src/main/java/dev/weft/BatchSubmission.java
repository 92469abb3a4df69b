package dev.weft;

/**
 * Submitting several jobs at once: {@link JobSystem#runAll}, and {@link JobSystem#runAndWait} (its queued
 * part, and the wait that follows, which never returns normally with a job skipped). A batch is admitted
 * whole or not at all:
 * <ul>
 *   <li>on a worker, the counter's units are added at once (or, for {@code runAndWait}, the counter is
 *       born holding them), the nodes are pushed onto the worker's own deque, and at most one sleeping
 *       worker is woken for the whole batch;</li>
 *   <li>from any other thread, one {@code externalSubmitters} window and one read of the run state cover
 *       the whole batch, and the counter's units are added before any job is queued, so a {@code close()}
 *       racing the call, or a counter without room for the batch, refuses it before any of its jobs could
 *       run (SYNCHRONIZATION.md §5, "Termination", for the window).</li>
 * </ul>
 */
final class BatchSubmission {
    private BatchSubmission() {
    }

    /** {@code runAll}: the jobs share {@code counter} (may be null). */
    static void runAll(Scheduler s, Priority priority, Counter counter, Job[] batch) {
        submit(s, priority, counter, batch, 0, false);
    }

    /**
     * {@code runAndWait}'s submission of {@code batch[1..]}: returns the counter that counts them, born
     * holding their number (a plain write: nobody can see it before the pushes or offers publish it with
     * their release stores), so a fork/join costs no {@code add} CAS.
     */
    static Counter forkRest(Scheduler s, Priority priority, Job[] batch) {
        Counter rest = new Counter("runAndWait", batch.length - 1);   // runAndWait passes at least one job
        submit(s, priority, rest, batch, 1, true);
        return rest;
    }

    private static void submit(Scheduler s, Priority priority, Counter counter, Job[] batch, int from,
                               boolean preCounted) {
        if (priority == null || batch == null) {
            throw new NullPointerException("priority and jobs must not be null");
        }
        for (Job job : batch) {
            if (job == null) {
                throw new NullPointerException("a job in the batch is null (none of the batch was submitted)");
            }
        }
        if (from >= batch.length) {
            return;
        }
        Worker w = Worker.current(s);
        if (w == null) {
            submitOutside(s, priority.ordinal(), counter, batch, from, preCounted);
            return;
        }
        if (s.isStopping()) {
            throw s.rejected("submit");
        }
        if (counter != null && !preCounted) {
            s.noteHelpScheduler(counter);
            counter.add(batch.length - from);
        }
        JobGroup group = s.inheritedGroup(w);
        boolean wasEmpty = false;
        for (int i = from; i < batch.length; i++) {
            PooledJob j = PooledJob.take(w);
            j.job = batch[i];
            j.priority = priority.ordinal();
            j.counter = counter;
            j.group = group;
            if (group != null && group.isCancelled()) {
                j.cancelBeforeStart(s);
                continue;
            }
            wasEmpty |= w.jobs[j.priority].push(j);
        }
        if (wasEmpty) {
            s.signalLocalWork(priority.ordinal());
        }
    }

    /**
     * A batch from a thread that is no worker, inside one {@code externalSubmitters} window: it used to be
     * one window per job, so a {@code close()} racing the call, or a counter too full for the next unit,
     * refused the batch after part of it had run.
     */
    private static void submitOutside(Scheduler s, int priority, Counter counter, Job[] batch, int from,
                                      boolean preCounted) {
        s.externalSubmitters.incrementAndGet();    // before reading runState: see Scheduler, "Shutdown"
        try {
            int rs = s.runState();
            if (!s.outsideMayAdd(rs, false)) {
                throw s.rejected("submit");
            }
            JobGroup group = s.waitingHelp != null ? Scheduler.inheritedGroupOutside() : null;
            if (counter != null) {
                s.noteHelpScheduler(counter);
                if (!preCounted) {
                    counter.add(batch.length - from);   // too full: throws, and nothing was queued
                }
            }
            for (int i = from; i < batch.length; i++) {
                PooledJob j;
                try {
                    j = PooledJob.take(null);
                } catch (Throwable noRoom) {
                    // The heap exhausted: jobs i.. were counted and will not be queued. Their units go back
                    // before the Error reaches the caller (the jobs before i are queued and run).
                    Scheduler.uncount(counter, batch.length - i, noRoom);
                    throw noRoom;
                }
                j.job = batch[i];
                j.priority = priority;
                j.counter = counter;
                j.group = group;
                s.injectCountedUnlessCancelled(j, batch.length - i);   // its unit and those after it
            }
            if (rs != Scheduler.RUNNING) {
                s.cancelQueuedIfTerminated();     // a main-thread job's batch while closing: see outsideMayAdd
            }
        } finally {
            s.externalSubmitters.decrementAndGet();
        }
    }

    /** {@link JobSystem#runAndWait(Priority, Job...)}: the first job here, the rest queued, then the wait. */
    static void runAndWait(Scheduler s, Priority priority, Job... jobs) {
        if (jobs == null) {
            throw new NullPointerException("jobs is null: pass the jobs to run, e.g. runAndWait(FRAME, a, b)");
        }
        if (jobs.length == 0) {
            return;
        }
        Counter others = forkRest(s, priority, jobs);   // checks every job and the priority first
        Throwable firstFailure = null;
        try {
            jobs[0].run();
        } catch (Throwable t) {
            firstFailure = t;
        }
        try {
            others.await();
            throwIfSkipped(others, "runAndWait");
        } catch (RuntimeException othersFailure) {   // JobFailedException, or our own cancellation
            if (firstFailure == null) {
                throw othersFailure;
            }
            firstFailure.addSuppressed(othersFailure);
        }
        if (firstFailure != null) {
            throw sneaky(firstFailure);
        }
    }

    /**
     * After a blocking fan-out's wait returned: if any of its jobs was cancelled before it started, or
     * stopped midway for its cancellation (the calling job's group was cancelled, or the job system
     * stopped), the work is not all done, and the call must not return as if it were: a level job committed a bake that 16 of 4,096 indices had run
     * (probe: 270 of 300 rounds). One plain read of the fan-out's own, fresh counter.
     */
    static void throwIfSkipped(Counter done, String call) {
        if (done.skippedJobs) {
            throw new JobCancelledException(call + ": some of its work was cancelled, before it started or"
                    + " midway (the calling job's group or the job system was cancelled), so it did not all run");
        }
    }

    @SuppressWarnings("unchecked")
    private static <X extends Throwable> RuntimeException sneaky(Throwable t) throws X {
        throw (X) t;                  // a job may throw checked exceptions (Job.run throws Exception)
    }
}
