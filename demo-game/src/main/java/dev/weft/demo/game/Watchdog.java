package dev.weft.demo.game;

/** A frame graph that did not finish within the watchdog time ({@code --watchdog-ms}). */
final class Watchdog extends Exception {
    private static final long serialVersionUID = 1L;

    Watchdog(String message) {
        super(message);
    }
}
