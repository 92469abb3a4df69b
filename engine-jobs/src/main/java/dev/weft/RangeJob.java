package dev.weft;

/**
 * The body of a {@link JobSystem#parallelFor parallelFor}: handles the half-open range
 * {@code [start, end)} in the slot numbered {@code workerIndex}: 0 to {@code workerCount() - 1} on a
 * worker, {@code workerCount()} on a waiting thread that runs the piece while it waits (see
 * {@link Jobs#workerIndex()}). One thread at a time uses a slot, so per-slot scratch arrays sized by
 * {@link JobSystem#workerSlots()} need no synchronization.
 *
 * <pre>{@code
 * jobs.parallelFor(0, entities.length, 256, (start, end, worker) -> {
 *     for (int i = start; i < end; i++) entities[i].integrate(dtSeconds);
 * });
 * }</pre>
 */
@FunctionalInterface
public interface RangeJob {
    /**
     * Processes elements {@code start} (inclusive) to {@code end} (exclusive).
     *
     * @param start the first index of the range, inclusive
     * @param end the end of the range, exclusive
     * @param workerIndex the index of the worker running this range (see {@link Jobs#workerIndex()})
     */
    void run(int start, int end, int workerIndex);
}
