package dev.weft.bench.profiler;

import dev.weft.bench.RangeBody;
import dev.weft.bench.Schedulers;

/**
 * How a frame's job graph runs on one system: parallel loops that start when the stages they depend on
 * have finished. The frame thread builds the graph without blocking and then waits for the last stage.
 *
 * <pre>
 * Stage move = s.parallelFor("move", n, grain, w.move);
 * Stage coll = s.parallelFor("collide", n, grain, w.collide, move);
 * ...
 * s.parallelFor("render", n, grain, w.buildCommands, anim, cull).await();
 * </pre>
 */
public interface FrameScheduler extends AutoCloseable {

    /** {@code "weft"}, {@code "forkjoin"} or {@code "vthreads"}. */
    String name();

    /**
     * Schedules {@code body} over {@code [0, count)} in ranges of at most {@code grain}, to start once
     * every stage in {@code after} has finished. Does not block. {@code after} must come from this scheduler.
     */
    Stage parallelFor(String name, int count, int grain, RangeBody body, Stage... after);

    @Override
    void close();

    /** A scheduled stage. */
    interface Stage {
        /** Blocks the calling (frame) thread until the stage has finished; rethrows a failure. */
        void await();
    }

    /** Creates the scheduler for {@code system} with {@code workers} threads (ignored by vthreads). */
    static FrameScheduler create(String system, int workers) {
        return switch (system) {
            case "weft" -> new WeftFrameScheduler(workers);
            case "forkjoin" -> new ForkJoinFrameScheduler(workers);
            case "vthreads" -> new VirtualThreadFrameScheduler();
            default -> throw new IllegalArgumentException("unknown system '" + system + "', expected one of "
                    + Schedulers.SYSTEMS);
        };
    }
}
