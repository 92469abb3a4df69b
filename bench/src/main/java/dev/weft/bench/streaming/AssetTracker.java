package dev.weft.bench.streaming;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Counts one run's assets as they end, from whichever thread ran them. Every count is an atomic; the
 * latch's countDown happens after the counts are updated, so a reader that returned from
 * {@link #awaitAll} sees every asset's counts (CountDownLatch: actions before countDown happen-before
 * a successful await).
 */
final class AssetTracker {
    private final int planned;
    private final CountDownLatch ended;
    private final AtomicInteger submitted = new AtomicInteger();
    private final AtomicInteger finished = new AtomicInteger();
    private final AtomicInteger finishedBy = new AtomicInteger();   // finished before windowEnd was marked
    private final AtomicLong results = new AtomicLong();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private volatile boolean windowOpen = true;

    AssetTracker(int planned) {
        this.planned = planned;
        this.ended = new CountDownLatch(planned);
    }

    /** Called by the frame loop as it hands an asset to the system (before the system may run it). */
    void submitting() {
        if (submitted.incrementAndGet() > planned) {
            throw new IllegalStateException("more than the " + planned + " planned assets submitted");
        }
    }

    /** Runs {@code asset} on the calling thread and records how it ended. */
    void load(Asset asset, Asset.Read read, AssetDecode.Checkpoint checkpoint) {
        try {
            results.addAndGet(asset.load(read, checkpoint));
            finished.incrementAndGet();
            if (windowOpen) {
                finishedBy.incrementAndGet();
            }
        } catch (Throwable t) {
            firstFailure.compareAndSet(null, t);
        } finally {
            ended.countDown();
        }
    }

    /** The measured frames are over: later finishes count as after the window. */
    void closeWindow() {
        windowOpen = false;
    }

    /** Waits until every planned asset ended or {@code timeout} passed; true if all ended. */
    boolean awaitAll(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    int planned() {
        return planned;
    }

    int submitted() {
        return submitted.get();
    }

    int finished() {
        return finished.get();
    }

    int finishedInWindow() {
        return finishedBy.get();
    }

    Throwable firstFailure() {
        return firstFailure.get();
    }

    long results() {
        return results.get();
    }
}
