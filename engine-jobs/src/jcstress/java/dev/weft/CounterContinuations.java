package dev.weft;

/**
 * jcstress only: the package-private {@link Counter#whenZero} continuation, which {@link Prerequisites} uses,
 * and the waiter stack's dead-node sweep.
 */
public final class CounterContinuations {
    private CounterContinuations() {}

    public static void whenZero(Counter c, Runnable action) {
        c.whenZero(action);
    }

    /** A node that timed out, left on {@code c}'s stack (as a timed wait leaves it under a newer waiter). */
    public static void pushTimedOut(Counter c) {
        c.pushTimedOutForTests();
    }

    /** The sweep a push runs now and then, run now from the top of {@code c}'s stack. */
    public static void sweep(Counter c) {
        c.sweepForTests();
    }
}
