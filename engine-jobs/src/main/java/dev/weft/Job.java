package dev.weft;

/**
 * A unit of work run by a {@link JobSystem} on one of its fibers.
 *
 * <pre>{@code
 * Counter done = new Counter();
 * jobs.run(() -> animate(skeleton), done);
 * done.await();
 * }</pre>
 *
 * <p>A job may throw: the failure is caught, the job's counter is still decremented, and whoever waits
 * on that counter gets a {@link JobFailedException} naming the job.
 */
@FunctionalInterface
public interface Job {
    /**
     * Does the work. Runs on a Weft fiber, or on the stack of a thread that waits for it (see
     * {@link JobSystemBuilder#waitersHelp}); may wait on counters and handles (on a fiber that parks it).
     *
     * @throws Exception anything; it is caught and recorded as the job's failure
     */
    void run() throws Exception;
}
