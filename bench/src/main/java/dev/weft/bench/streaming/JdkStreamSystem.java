package dev.weft.bench.streaming;

import dev.weft.bench.RangeBody;
import dev.weft.bench.SchedulerUnderTest;
import dev.weft.bench.Schedulers;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * The two JDK baselines, built on the JMH adapters ({@link Schedulers}) so the frame split is the one
 * the other benchmarks measure. Neither has priorities or checkpoints: an asset decodes to its end.
 *
 * <ul>
 *   <li>{@link #forkJoin}: a private {@code ForkJoinPool(workers)}; the frame is
 *       {@code pool.invoke(RecursiveAction)} halving to the grain ({@code invokeAll}) from the main
 *       thread; an asset is {@code pool.submit(task)} on the same pool, its read a
 *       {@link ForkJoinPool#managedBlock} around the sleep (the pool may add a spare thread meanwhile,
 *       the idiom's equivalent of Weft's parked read; a plain sleep would hold a worker for the read).</li>
 *   <li>{@link #virtualThreads}: the JDK's default virtual-thread scheduler (one carrier per available
 *       processor; {@code workers} does not apply); the frame is one virtual thread per range of at
 *       most the grain, joined by a latch on the main thread; the stream is
 *       {@code Executors.newVirtualThreadPerTaskExecutor()}, so both share that scheduler's carriers;
 *       the read is {@code Thread.sleep}, which unmounts the virtual thread.</li>
 * </ul>
 */
final class JdkStreamSystem implements StreamSystem {
    private final SchedulerUnderTest frames;
    private final ExecutorService stream;       // null: assets go to frames.submitOne
    private final Asset.Read read;

    private JdkStreamSystem(SchedulerUnderTest frames, ExecutorService stream, Asset.Read read) {
        this.frames = frames;
        this.stream = stream;
        this.read = read;
    }

    static JdkStreamSystem forkJoin(int workers) {
        return new JdkStreamSystem(Schedulers.create("forkjoin", workers), null, JdkStreamSystem::managedSleep);
    }

    static JdkStreamSystem virtualThreads() {
        return new JdkStreamSystem(Schedulers.create("vthreads", 1), Executors.newVirtualThreadPerTaskExecutor(), Thread::sleep);
    }

    @Override
    public void frame(int count, int grain, RangeBody body) {
        frames.parallelFor(0, count, grain, body);
    }

    @Override
    public void submit(Asset asset, AssetTracker tracker) {
        Runnable load = () -> tracker.load(asset, read, AssetDecode.Checkpoint.NONE);
        if (stream == null) {
            frames.submitOne(load);
        } else {
            stream.execute(load);
        }
    }

    @Override
    public void close() {
        if (stream != null) {
            stream.shutdown();
            try {
                stream.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        frames.close();
    }

    private static void managedSleep(long millis) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        ForkJoinPool.managedBlock(new ForkJoinPool.ManagedBlocker() {
            @Override
            public boolean block() throws InterruptedException {
                long left = until - System.nanoTime();
                if (left > 0) {
                    TimeUnit.NANOSECONDS.sleep(left);
                }
                return true;
            }

            @Override
            public boolean isReleasable() {
                return until - System.nanoTime() <= 0;
            }
        });
    }
}
