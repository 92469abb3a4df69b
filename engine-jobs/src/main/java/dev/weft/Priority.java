package dev.weft;

/**
 * Which work a worker takes first. Workers take {@link #FRAME} before {@link #NORMAL} before
 * {@link #BACKGROUND}, in their own queues and when stealing; within one priority, fibers that became
 * ready again are resumed before new jobs start.
 *
 * <p>Starvation bound: every 64th time a worker looks for work it
 * starts at a lower priority instead of FRAME — NORMAL and BACKGROUND take turns — so while a priority
 * has queued work, each worker gives it at least one pick in 2 × 64
 * (128) looks, however much work of the other two priorities keeps arriving.
 */
public enum Priority {
    /** This frame's work: simulation, animation, culling, render preparation. */
    FRAME,
    /** The default. */
    NORMAL,
    /** Streaming and other work that may take many frames. */
    BACKGROUND;

    static final Priority[] VALUES = values();
    static final int COUNT = VALUES.length;
}
