package dev.weft.demo.window;

/** No backend in the requested list could be opened; the message has one reason per backend tried. */
public final class DisplayUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DisplayUnavailableException(String message) {
        super(message);
    }
}
