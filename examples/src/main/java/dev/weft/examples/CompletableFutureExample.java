package dev.weft.examples;

import dev.weft.Counter;
import dev.weft.JobSystem;
import dev.weft.Jobs;
import dev.weft.Priority;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code CompletableFuture} stages run as Weft jobs, the example of {@code README.md}: each async stage
 * given the Weft executor runs on a Weft fiber, so it may fork jobs and wait on a counter, which parks the
 * fiber and frees the worker ({@code JobSystem} is an {@code Executor}). It prints the result and whether each stage ran on a fiber.
 */
public final class CompletableFutureExample {
    private CompletableFutureExample() {}

    /**
     * Runs the example.
     *
     * @param args none
     */
    public static void main(String[] args) {
        int[] meshVertexCounts = new int[10_000];
        for (int i = 0; i < meshVertexCounts.length; i++) {
            meshVertexCounts[i] = 3 + i % 61;
        }
        // README snippet begin
        try (JobSystem jobs = JobSystem.builder().workers(2).build()) {
            CompletableFuture<String> report = CompletableFuture
                    .supplyAsync(() -> totalVertices(jobs, meshVertexCounts), jobs)   // a Weft job
                    .thenApplyAsync(total -> total + " vertices, on a fiber: " + Jobs.inFiber(), jobs);
            System.out.println(report.join());
        }
        // README snippet end
    }

    /** Sums the counts in parallel ranges; the caller, a stage on a fiber, waits on the counter. */
    static long totalVertices(JobSystem jobs, int[] meshVertexCounts) {
        AtomicLong total = new AtomicLong();
        Counter summed = new Counter("sum vertices");
        jobs.parallelFor(Priority.NORMAL, 0, meshVertexCounts.length, 1024, (start, end, worker) -> {
            long sum = 0;
            for (int i = start; i < end; i++) {
                sum += meshVertexCounts[i];
            }
            total.addAndGet(sum);
        }, summed);
        summed.await();                                              // parks the stage's fiber
        if (!Jobs.inFiber()) {
            throw new IllegalStateException("the stage ran outside Weft: pass the Weft executor to it");
        }
        return total.get();
    }
}
