package dev.weft;

/** jcstress only: the package-private {@link Counter#whenZero} continuation, which {@link Prerequisites} uses. */
public final class CounterContinuations {
    private CounterContinuations() {}

    public static void whenZero(Counter c, Runnable action) {
        c.whenZero(action);
    }
}
