package io.weft.actors;

/** Thrown inside an actor that was stopped while it blocked in {@code receive}; let it propagate so the actor's thread ends. */
public final class ActorStoppedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message the description */
    public ActorStoppedException(String message) {
        super(message);
    }
}
