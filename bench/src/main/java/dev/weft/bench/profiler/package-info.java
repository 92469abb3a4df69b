/**
 * The frame-time profiler: runs a game-like frame job graph ({@code FrameWorkload}: move, collide,
 * animate, cull) at a fixed frame interval on each system behind {@code FrameScheduler}, records every
 * frame's time, and writes percentiles, frames over budget and SVG charts ({@code ProfileReport},
 * {@code SvgCharts}). Run through {@code FrameProfilerMain}. It measures only: nothing here may tune the
 * systems it compares differently from how a user would run them.
 */
package dev.weft.bench.profiler;
