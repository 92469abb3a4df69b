package dev.weft.bench.profiler;

import dev.weft.bench.RangeBody;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.TimeUnit;

/**
 * Fork-join: each stage is a {@link CompletableFuture} that, once its dependencies completed, invokes a
 * {@link RecursiveAction} halving the range while it is longer than the grain (as Weft does) on a private {@link ForkJoinPool}.
 */
final class ForkJoinFrameScheduler implements FrameScheduler {
    private final ForkJoinPool pool;

    ForkJoinFrameScheduler(int workers) {
        pool = new ForkJoinPool(workers);
    }

    @Override
    public String name() {
        return "forkjoin";
    }

    @Override
    public Stage parallelFor(String name, int count, int grain, RangeBody body, Stage... after) {
        Runnable loop = () -> new Split(0, count, Math.max(1, grain), body).invoke();
        CompletableFuture<Void> future;
        if (after.length == 0) {
            future = CompletableFuture.runAsync(loop, pool);
        } else {
            CompletableFuture<?>[] deps = new CompletableFuture<?>[after.length];
            for (int i = 0; i < after.length; i++) {
                deps[i] = ((FjStage) after[i]).future;
            }
            future = CompletableFuture.allOf(deps).thenRunAsync(loop, pool);
        }
        return new FjStage(future);
    }

    @Override
    public void close() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private record FjStage(CompletableFuture<Void> future) implements Stage {
        @Override
        public void await() {
            future.join();
        }
    }

    private static final class Split extends RecursiveAction {
        private final int start;
        private final int end;
        private final int grain;
        private final RangeBody body;

        Split(int start, int end, int grain, RangeBody body) {
            this.start = start;
            this.end = end;
            this.grain = grain;
            this.body = body;
        }

        @Override
        protected void compute() {
            if (end - start <= grain) {
                if (end > start) {
                    body.run(start, end);
                }
                return;
            }
            int mid = (start + end) >>> 1;
            invokeAll(new Split(start, mid, grain, body), new Split(mid, end, grain, body));
        }
    }
}
