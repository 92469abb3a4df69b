package dev.weft.bench;

/**
 * The body of a parallel loop: processes the half-open index range {@code [start, end)}.
 *
 * <p>Called concurrently from several threads with disjoint ranges that together cover the loop; each
 * range is at most the loop's grain long. That is Weft's rule (a range is halved while it is longer
 * than the grain, as in enkiTS), and the fork-join and virtual-thread adapters split the same way, so
 * every system runs the same ranges: with a power-of-two length and grain, exactly the aligned blocks
 * {@code [k * grain, (k + 1) * grain)}.
 */
@FunctionalInterface
public interface RangeBody {
    void run(int start, int end);
}
