package io.weft.actors;

/**
 * The failure of an actor caused by the failure of an actor {@linkplain ActorContext#link(ActorRef)
 * linked} to it, when it does not {@linkplain ActorContext#trapExit(boolean) trap exits}. Its
 * {@link #getCause() cause} is the linked actor's failure.
 */
public final class LinkedActorFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The linked actor, kept only as its address so the exception stays serializable. */
    private final String actor;

    /**
     * @param actor the linked actor that failed
     * @param cause its failure
     */
    public LinkedActorFailedException(ActorRef<?> actor, Throwable cause) {
        super("linked actor " + actor + " failed: " + cause, cause);
        this.actor = actor.address();
    }

    /** @return the address of the linked actor that failed */
    public String linkedActor() {
        return actor;
    }
}
