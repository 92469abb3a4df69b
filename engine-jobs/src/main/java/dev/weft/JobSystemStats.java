package dev.weft;

import java.util.List;

/**
 * A snapshot of what a job system has done. Counters are per worker, written by their worker without
 * fences and read here without locks, so a snapshot taken while jobs run is approximate; after
 * {@link JobSystem#close()} (or whenever the system is idle) it is exact.
 *
 * @param workers            per-worker figures, by worker index
 * @param mainThreadJobsRun  main-thread jobs run by {@link JobSystem#runMainThreadJobs}
 * @param fibersCreated      fibers (virtual threads) ever made; the rest of the jobs reused them
 * @param fibersAlive        fibers whose thread is still alive (0 after termination)
 * @param fibersParked       fibers parked in a wait right now
 * @param jobsCancelledElsewhere jobs cancelled by threads that are not workers (cancel(), shutdownNow())
 * @param jobsRunByWaiters   jobs run by threads that are not workers while they waited on a counter or
 *                           handle ({@link JobSystemBuilder#waitersHelp}); included in {@link #jobsRun()}
 */
public record JobSystemStats(List<WorkerStats> workers, long mainThreadJobsRun, long fibersCreated,
                             long fibersAlive, long fibersParked, long jobsCancelledElsewhere,
                             long jobsRunByWaiters) {

    /**
     * One worker's figures.
     *
     * @param jobsRun       jobs that ended here after starting on this worker's fibers, plus jobs this
     *                      worker failed at start with {@link FiberPoolExhaustedException} (a bounded
     *                      pool ran dry): every submitted job is counted once here or in jobsCancelled
     * @param jobsCancelled jobs this worker cancelled instead of starting
     * @param stealAttempts visits to a victim whose oldest job looked unclaimed (a visit may take several)
     * @param steals        jobs and ready fibers this worker took from other workers: a visit that takes
     *                      one job takes up to half of what the victim still holds with it, so this can
     *                      exceed {@code stealAttempts}
     * @param waits         times a job parked its fiber in a wait on this worker
     * @param idleParks     times the worker parked for lack of work
     * @param idleNanos     time spent parked
     * @param fibersCreated fibers this worker created
     * @param checkpointYields times a job on this worker yielded at {@link Jobs#checkpoint()} because
     *                      more urgent work was queued
     */
    public record WorkerStats(long jobsRun, long jobsCancelled, long stealAttempts, long steals, long waits,
                         long idleParks, long idleNanos, long fibersCreated, long checkpointYields) {
    }

    static JobSystemStats of(Worker[] workers, long mainRun, long cancelledElsewhere, long created,
                             long alive, long parked, long runByWaiters) {
        long[][] perWorker = new long[workers.length][];
        for (int i = 0; i < workers.length; i++) {
            long[] s = new long[Worker.STAT_COUNT];
            for (int k = 0; k < Worker.STAT_COUNT; k++) {
                s[k] = workers[i].stat(k);
            }
            perWorker[i] = s;
        }
        List<WorkerStats> ws = new java.util.ArrayList<>();
        for (long[] s : perWorker) {
            ws.add(new WorkerStats(s[Worker.JOBS_RUN], s[Worker.JOBS_CANCELLED],
                    s[Worker.STEAL_ATTEMPTS], s[Worker.STEALS], s[Worker.WAITS],
                    s[Worker.IDLE_PARKS], s[Worker.IDLE_NANOS],
                    s[Worker.FIBERS_CREATED], s[Worker.CHECKPOINT_YIELDS]));
        }
        return new JobSystemStats(List.copyOf(ws), mainRun, created, alive, parked, cancelledElsewhere,
                runByWaiters);
    }

    /**
     * Jobs run, all workers together plus those run by waiting threads ({@link #jobsRunByWaiters});
     * main-thread jobs not included.
     *
     * @return the total number of jobs run
     */
    public long jobsRun() {
        return workers.stream().mapToLong(WorkerStats::jobsRun).sum() + jobsRunByWaiters;
    }

    /**
     * Jobs cancelled before they started, everywhere.
     *
     * @return the total number of jobs cancelled before they started
     */
    public long jobsCancelled() {
        return workers.stream().mapToLong(WorkerStats::jobsCancelled).sum() + jobsCancelledElsewhere;
    }

    /**
     * Yields at {@link Jobs#checkpoint()}, all workers together.
     *
     * @return the total number of checkpoint yields
     */
    public long checkpointYields() {
        return workers.stream().mapToLong(WorkerStats::checkpointYields).sum();
    }

    /**
     * Jobs and ready fibers taken by steals, all workers together (a steal may take several at once).
     *
     * @return the total number of jobs and fibers stolen
     */
    public long steals() {
        return workers.stream().mapToLong(WorkerStats::steals).sum();
    }

    /**
     * Waits that parked a fiber, all workers together.
     *
     * @return the total number of waits that parked a fiber
     */
    public long waits() {
        return workers.stream().mapToLong(WorkerStats::waits).sum();
    }
}
