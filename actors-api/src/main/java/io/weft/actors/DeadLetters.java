package io.weft.actors;

/**
 * The dead-letter office of a system: counts and publishes every message that was not handled.
 * A {@link DeadLetter} that itself cannot be delivered (a subscribed actor has stopped) is counted
 * but not published again.
 */
public interface DeadLetters extends EventStream<DeadLetter> {

    /**
     * How many messages went to dead letters so far.
     *
     * @return the count
     */
    long count();

    /**
     * How many messages went to dead letters so far for one reason. After {@link ActorSystem#close()}
     * returns, {@code count(Reason.SYSTEM_CLOSED)} includes every message that was still undelivered
     * when the system closed.
     *
     * @param reason the reason
     * @return the count
     */
    long count(DeadLetter.Reason reason);

    /**
     * Posts a dead letter found outside the system's own actors (a remoting layer's overflow):
     * counted under its reason and published like the system's own.
     *
     * @param letter the dead letter, not null
     * @throws UnsupportedOperationException if this implementation does not take outside letters
     */
    default void post(DeadLetter letter) {
        throw new UnsupportedOperationException("this dead-letter office does not take outside letters: " + getClass().getName());
    }
}
