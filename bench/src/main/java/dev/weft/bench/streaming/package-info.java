/**
 * "The frame loop while streaming": frame times of a 60 Hz main-thread loop while BACKGROUND assets
 * stream, on Weft with each of its streaming mechanisms switched, on ForkJoinPool and on virtual
 * threads. Entry point {@link dev.weft.bench.streaming.StreamBenchMain}.
 */
package dev.weft.bench.streaming;
