package io.weft.actors;

/** Fails an {@link ActorSystem#ask ask} future when no reply came in time. */
public final class AskTimeoutException extends java.util.concurrent.TimeoutException {
    private static final long serialVersionUID = 1L;

    /** @param message the description */
    public AskTimeoutException(String message) {
        super(message);
    }
}
