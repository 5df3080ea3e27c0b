package io.weft.actors.runtime.internal.mailbox;

import org.jctools.queues.MessagePassingQueue;

/**
 * A queued item with its enqueue stamp, used only for frames whose scheduler turned time-stamping
 * on (Prokopec 2016, §4); other frames queue items bare.
 *
 * @param item the message or {@link Envelope}
 * @param stamp the stamp taken when it was queued
 */
public record Stamped(Object item, long stamp) {

    /** @return the stamp of the queue's head, MAX_VALUE if empty, MIN_VALUE if unstamped */
    public static long headOf(MessagePassingQueue<Object> queue) {
        Object head = queue.relaxedPeek();
        if (head == null) {
            return queue.isEmpty() ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return head instanceof Stamped s ? s.stamp : Long.MIN_VALUE;
    }
}
