package dev.weft.internal;

/**
 * Lincheck run sizes for this module's *LincheckTest classes: CI sizes by default, ten times more with
 * {@code -Dweft.stress=full} (the property surefire passes through from the parent pom).
 */
public final class LincheckBudget {
    private static final int SCALE = "full".equals(System.getProperty("weft.stress")) ? 10 : 1;

    private LincheckBudget() {
    }

    /** Scenario count: {@code ci} at CI size. */
    public static int iterations(int ci) {
        return ci * SCALE;
    }

    /** Interleavings (model checking) or runs (stress) per scenario: {@code ci} at CI size. */
    public static int invocations(int ci) {
        return ci * SCALE;
    }
}
