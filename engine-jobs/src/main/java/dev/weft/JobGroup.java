package dev.weft;

import java.util.concurrent.Callable;

/**
 * A cancellation scope: every job submitted through the group, and every job those jobs submit in turn,
 * belongs to it. {@link #cancel()} cancels them all at once — for example every job of the level being
 * unloaded.
 *
 * <pre>{@code
 * JobGroup level = jobs.newGroup("level 3");
 * level.run(() -> loadLevel(3));      // loadLevel's own jobs join the group too
 * ...
 * level.cancel();                     // unstarted jobs never run; running ones see Jobs.isCancelled()
 * }</pre>
 *
 * <p>After {@code cancel()}: a job of the group that has not started is cancelled when a worker reaches
 * it (it never runs; its counter is decremented and its handle reports cancelled); a running job sees
 * {@link Jobs#isCancelled()} and a wait it is parked in throws {@link JobCancelledException}; jobs
 * submitted to the group afterwards are cancelled at once.
 *
 * <p>One limit: a job that joins a job of another group may run it inline, on its own stack. If that
 * inner job then parks (it waits on something of its own), the wait on the fiber is the inner job's, and
 * cancelling the outer job's group does not end it: the outer job sees its cancellation only when the
 * inner job ends. Cancel the inner job's group too, or give the inner work a timeout.
 */
public final class JobGroup {
    private final Scheduler scheduler;
    private final String name;
    private volatile boolean cancelled;   // set once by cancel(); read by workers at job start and by waits

    JobGroup(Scheduler scheduler, String name) {
        this.scheduler = scheduler;
        this.name = name;
    }

    /**
     * The group's name.
     *
     * @return the name given to {@link JobSystem#newGroup(String)}
     */
    public String name() {
        return name;
    }

    /**
     * True after {@link #cancel()}.
     *
     * @return true once the group has been cancelled; it never turns false again
     */
    public boolean isCancelled() {
        return cancelled;
    }

    /** Cancels every job of the group; see the class comment for what that means for each job. */
    public void cancel() {
        cancelled = true;                    // volatile write, then read the fibers' waits (Dekker with beginWait)
        scheduler.fibers.cancelWaitsOf(this);
    }

    /**
     * Runs {@code job} in this group at NORMAL priority.
     *
     * @param job the work to run; not null
     */
    public void run(Job job) {
        scheduler.run(Priority.NORMAL, null, job, null, this);
    }

    /**
     * Runs {@code job} in this group, decrementing {@code counter} when it ends.
     *
     * @param priority the job's priority; not null
     * @param name the job's name in failures, traces and watchdog reports; may be null
     * @param job the work to run; not null
     * @param counter incremented now and decremented when the job ends; may be null
     */
    public void run(Priority priority, String name, Job job, Counter counter) {
        scheduler.run(priority, name, job, counter, this);
    }

    /**
     * Submits a value-returning job in this group.
     *
     * @param <T> the result type
     * @param priority the job's priority; not null
     * @param name the job's name in failures, traces and watchdog reports; may be null
     * @param callable the work whose result the handle gives; not null
     * @return the job's handle
     */
    public <T> JobHandle<T> submit(Priority priority, String name, Callable<T> callable) {
        return scheduler.submit(priority, name, callable, null, this);
    }

    /**
     * Submits a value-returning job in this group at NORMAL priority.
     *
     * @param <T> the result type
     * @param callable the work whose result the handle gives; not null
     * @return the job's handle
     */
    public <T> JobHandle<T> submit(Callable<T> callable) {
        return scheduler.submit(Priority.NORMAL, null, callable, null, this);
    }

    /**
     * Jobs of this group to start when these counters reach zero; see {@link Prerequisites}.
     *
     * @param counters the counters that must all reach zero before the jobs start
     * @return the prerequisites, whose jobs belong to this group
     */
    public Prerequisites after(Counter... counters) {
        return Prerequisites.ofCounters(scheduler, this, counters);
    }

    /**
     * Jobs of this group to start when these jobs have ended; see {@link Prerequisites}.
     *
     * @param handles the jobs that must all have ended before the jobs start
     * @return the prerequisites, whose jobs belong to this group
     */
    public Prerequisites after(JobHandle<?>... handles) {
        return Prerequisites.ofHandles(scheduler, this, handles);
    }

    @Override
    public String toString() {
        return "JobGroup[" + name + (cancelled ? ", cancelled]" : "]");
    }
}
