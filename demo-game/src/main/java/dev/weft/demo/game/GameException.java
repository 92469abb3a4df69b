package dev.weft.demo.game;

/** A run that could not finish normally; {@link #exitCode()} is what the process should exit with. */
public final class GameException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public GameException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public GameException(int exitCode, String message) {
        this(exitCode, message, null);
    }

    public int exitCode() {
        return exitCode;
    }
}
