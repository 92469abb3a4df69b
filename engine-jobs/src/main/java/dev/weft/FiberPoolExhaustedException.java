package dev.weft;

/**
 * A job could not start because every fiber of a {@linkplain FiberPoolPolicy#bounded bounded} pool
 * stayed parked in a wait for longer than the pool's exhaustion timeout. The job fails with this (its
 * counter completes and its waiters see the failure) so the system cannot hang silently.
 */
public class FiberPoolExhaustedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FiberPoolExhaustedException(String message) {
        super(message);
    }
}
