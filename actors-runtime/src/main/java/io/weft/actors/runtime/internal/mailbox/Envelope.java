package io.weft.actors.runtime.internal.mailbox;

import io.weft.actors.ActorRef;

/**
 * A message queued together with its reply destination. Messages sent without one are queued bare,
 * so the common {@code tell(msg)} allocates nothing.
 *
 * @param message the user's message
 * @param sender the reply destination
 */
public record Envelope(Object message, ActorRef<?> sender) {

    public static Object unwrap(Object item) {
        if (item instanceof Stamped s) {
            item = s.item();
        }
        return item instanceof Envelope e ? e.message : item;
    }

    public static ActorRef<?> senderOf(Object item) {
        if (item instanceof Stamped s) {
            item = s.item();
        }
        return item instanceof Envelope e ? e.sender : null;
    }
}
