package dev.weft.bench.streaming;

import dev.weft.bench.RangeBody;

/**
 * One system under test: runs a frame's parallel loop to completion on the calling (main) thread's
 * behalf, and takes streamed assets to run in the background at the lowest priority it has.
 */
interface StreamSystem extends AutoCloseable {

    /**
     * Runs {@code body} over {@code [0, count)} in ranges of at most {@code grain}, as this frame's work,
     * and returns when every range has run. Called from the main thread only.
     */
    void frame(int count, int grain, RangeBody body);

    /** Starts {@code asset} in the background and returns at once; the tracker records its end. */
    void submit(Asset asset, AssetTracker tracker);

    @Override
    void close();

}
