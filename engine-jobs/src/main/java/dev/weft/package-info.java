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
 * <h2>Waiting inside a job: what to do and what not to</h2>
 * <ul>
 *   <li>Wait for other jobs with {@link dev.weft.Counter#await()}, {@link dev.weft.JobHandle#join()} or
 *       {@link dev.weft.JobSystem#runAndWait}: the fiber parks and its worker runs other jobs meanwhile.</li>
 *   <li>Do not spin for another job ({@code while (!done) Thread.yield();} or {@code Thread.onSpinWait()}):
 *       a yielding fiber is run again ahead of the jobs queued on its worker, so the job it waits for runs
 *       only if another worker steals it. On one worker it never runs: a 3 s spin ended with the flag
 *       still unset (on 2 workers the same spin took 37 ms where a wait takes microseconds).</li>
 *   <li>Do not wait inside a static initializer: the fiber is pinned there and blocks its worker (the
 *       watchdog names the class).</li>
 *   <li>A job may call {@code System.exit}: a shutdown hook that calls {@link dev.weft.JobSystem#close()}
 *       waits for every other job, then returns without the exiting one (which waits for the hooks) and
 *       says so on stderr.</li>
 * </ul>
 *
 * <p>What lives here: only what a user calls or implements, each with Javadoc. The scheduler's machinery
 * (workers, the work picker, the fiber pool, parking, job nodes) lives here too because it shares
 * package-private state with the API classes, but it is package-private: no public type here may expose
 * it. Code that is not API and needs no such state goes to {@code dev.weft.internal}, which the module
 * does not export.
 */
package dev.weft;
