/**
 * Weft's whole API: a fiber-based job system for game engines. A {@link dev.weft.JobSystem} owns a fixed
 * set of worker threads; jobs ({@link dev.weft.Job}, or a {@link java.util.concurrent.Callable} for a
 * {@link dev.weft.JobHandle}) run on pooled fibers; a job waits for others by parking its fiber on a
 * {@link dev.weft.Counter} or a handle, which frees the worker; blocking calls go through
 * {@link dev.weft.Jobs#blocking}; GL work reaches the main thread as main-thread jobs.
 *
 * <pre>{@code
 * try (JobSystem jobs = JobSystem.builder().workers(4).build()) {
 *     Counter frame = new Counter();
 *     jobs.parallelFor(Priority.FRAME, 0, entities.length, 256, (from, to, worker) -> simulate(from, to), frame);
 *     frame.await();
 * }
 * }</pre>
 *
 * <p>What lives here: only what a user calls or implements, each with Javadoc. The scheduler's machinery
 * (workers, the work picker, the fiber pool, parking, job nodes) lives here too because it shares
 * package-private state with the API classes, but it is package-private: no public type here may expose
 * it. Code that is not API and needs no such state goes to {@code dev.weft.internal}, which the module
 * does not export.
 */
package dev.weft;
