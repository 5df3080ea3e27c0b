package io.weft.actors;

/** Thrown by {@link ActorContext#receiveWithin} when nothing matched in time and the handler has no timeout case. */
public final class ReceiveTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message the description */
    public ReceiveTimeoutException(String message) {
        super(message);
    }
}
