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
        /**
         * No handler matched it: the oldest kept message of an actor over its bound of kept
         * messages, or any unmatched message of an actor whose {@link Unhandled} mode is
         * {@link Unhandled.Mode#DEAD_LETTER}.
         */
        UNHANDLED,
        /**
         * It was a {@link ActorContext#reply(Object)} to a message that carried no sender; the
         * letter's recipient and sender are both the replying actor.
         */
        NO_SENDER,
        /** The bounded outbound queue to a remote system was full (actors-remote). */
        REMOTE_OUTBOUND_OVERFLOW,
        /** The remote system is unreachable or its incarnation is quarantined (actors-remote). */
        REMOTE_UNREACHABLE,
        /** The message could not be encoded for the wire, or was refused on arrival (actors-remote). */
        REMOTE_REFUSED,
        /**
         * A router had no routee left to send it to: a group's routees have all stopped, or a pool
         * has none (its routees stopped and its routee factory threw or its restart budget was
         * used up; the router's warning names it). The fix is in what stops the routees or in the
         * factory; a pool spawns routees again when it restarts.
         */
        NO_ROUTEES,
        /** It was published to a topic or the event stream while no actor was subscribed to it. */
        NO_SUBSCRIBERS
    }
}
