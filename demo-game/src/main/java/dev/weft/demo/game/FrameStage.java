package dev.weft.demo.game;

import java.util.Locale;

/** The stages of a frame's job graph, in the order they run (see {@code FrameGraph}). */
public enum FrameStage {
    /** parallelFor: movement, collision, animation of every entity. */
    SIMULATE,
    /** parallelFor: frustum versus entity bounds. */
    CULL,
    /** parallelFor: render commands of the visible entities, into per-worker lists. */
    BUILD,
    /** One job: per-worker lists merged in range order, props added, sorted by material. */
    MERGE;

    /** Lower-case name, as in reports and the summary. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * A fault-injection seam for tests: called on the worker at the start of every range of the three
     * parallel stages, with the frame number and the range.
     */
    @FunctionalInterface
    public interface Hook {
        void onRange(FrameStage stage, long frame, int start, int end);

        /** Called on the main thread while gameplay frame {@code frame} is drawn, just before its present. */
        default void onPresent(long frame) {
        }
    }
}
