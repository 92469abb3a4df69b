/**
 * JMH benchmarks of Weft against ForkJoinPool and virtual threads ({@code system=weft|forkjoin|vthreads}):
 * empty jobs, fork/join Fib, wait-and-resume, parallelFor, the main-thread wait, parking ping-pong,
 * recording overhead, and the level-load benchmark. Each compares systems side by side in one run, because
 * timings differ between machines; the summaries ({@code RatioSummary}, {@code OverheadSummary}) turn a
 * run into ratios. Nothing here is used by the library or the game, and no test passes or fails on the
 * speeds measured here.
 */
package dev.weft.bench;
