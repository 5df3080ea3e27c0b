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
}
