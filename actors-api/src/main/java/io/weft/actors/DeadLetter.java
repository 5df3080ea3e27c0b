package io.weft.actors;

/**
 * A message that could not be delivered or handled.
 *
 * @param message the message
 * @param recipient who it was for
 * @param sender its reply destination, or null
 * @param reason why it is dead
 */
public record DeadLetter(Object message, ActorRef<?> recipient, ActorRef<?> sender, Reason reason) {

    /** Why a message became a dead letter. */
    public enum Reason {
        /** The recipient had stopped (or stopped before handling it). */
        RECIPIENT_STOPPED,
        /** The system was closed. */
        SYSTEM_CLOSED,
        /** A bounded mailbox dropped it. */
        MAILBOX_OVERFLOW,
        /** A router had no routee left to send it to. */
        NO_ROUTEES,
        /** It was published to a topic or the event stream while no actor was subscribed to it. */
        NO_SUBSCRIBERS
    }
}
