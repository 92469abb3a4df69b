package dev.weft.bench.streaming;

import dev.weft.Counter;
import dev.weft.JobSystem;
import dev.weft.JobSystemBuilder;
import dev.weft.Jobs;
import dev.weft.Priority;
import dev.weft.RangeJob;
import dev.weft.bench.RangeBody;

/**
 * Weft: the frame is {@code jobs.parallelFor(FRAME, ...)} on a fresh counter that the main thread
 * awaits; an asset is a BACKGROUND job whose read is {@code Jobs.blocking(() -> sleep)} (the fiber
 * parks on Weft's blocking threads, the worker is free) and whose decode calls {@code Jobs.checkpoint()}
 * every ~0.5 ms when the variant has checkpoints on. The variant's cap and waitersHelp go to the builder.
 */
final class WeftStreamSystem implements StreamSystem {
    private final JobSystem jobs;
    private final AssetDecode.Checkpoint checkpoint;

    WeftStreamSystem(Variant v, int workers) {
        JobSystemBuilder b = JobSystem.builder().workers(workers).name("stream-" + v.name());
        if (!v.cap()) {
            b.maxWorkers(Priority.BACKGROUND, workers);        // a cap of every worker is no cap
        }
        b.waitersHelp(v.waitersHelp());
        jobs = b.build();
        checkpoint = v.checkpoints() ? Jobs::checkpoint : AssetDecode.Checkpoint.NONE;
    }

    @Override
    public void frame(int count, int grain, RangeBody body) {
        Counter done = new Counter("frame");
        RangeJob loop = (start, end, worker) -> body.run(start, end);
        jobs.parallelFor(Priority.FRAME, 0, count, grain, loop, done);
        done.await();
    }

    @Override
    public void submit(Asset asset, AssetTracker tracker) {
        jobs.run(Priority.BACKGROUND, "asset-" + asset.index(),
                () -> tracker.load(asset, WeftStreamSystem::parkedRead, checkpoint), new Counter("asset"));
    }

    private static void parkedRead(long millis) throws Exception {
        Jobs.blocking(() -> {
            Thread.sleep(millis);
            return null;
        });
    }

    @Override
    public void close() {
        jobs.close();
    }
}
