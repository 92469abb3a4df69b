package dev.weft;

/**
 * jcstress only: a job of a real job system, never queued, with a counter of its own, so that a test can
 * cancel it from a thread that is not a worker (as {@code handle.cancel()} does) while another thread
 * watches the counter and {@link JobSystem#stats()}. One job system per JVM, one worker, never closed
 * (its threads are daemons); nothing here is queued, so its worker only sleeps.
 */
public final class CancelledJobs {
    private CancelledJobs() {}

    private static final JobSystem SYSTEM = JobSystem.builder().name("jcstress-cancel").workers(1).build();
    private static final Scheduler SCHEDULER = SYSTEM.schedulerForTests();

    /** A counter holding one unit: the job {@link #newJob} makes for it. */
    public static Counter newCounter() {
        Counter c = new Counter("jcstress");
        c.add(1);
        return c;
    }

    /** A handle counted by {@code c}, as {@code submit(priority, name, job, c)} makes it, but not queued. */
    public static JobHandle<Integer> newJob(Counter c) {
        return new JobHandle<>(SCHEDULER, "jcstress", Priority.NORMAL, () -> 42, c, null);
    }

    /** {@code stats().jobsCancelled()} of the job system the jobs belong to: never goes down. */
    public static long jobsCancelled() {
        return SYSTEM.stats().jobsCancelled();
    }
}
