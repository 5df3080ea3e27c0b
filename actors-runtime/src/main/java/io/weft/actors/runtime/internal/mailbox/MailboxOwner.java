package io.weft.actors.runtime.internal.mailbox;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;

/**
 * What a bounded mailbox's overflow policy needs from the actor that owns the mailbox: its name
 * for messages, whether it has stopped, and where dropped messages go. The actor's cell
 * implements it; only the overflow paths call it, never the common unbounded send.
 */
public interface MailboxOwner {

    /** @return the owning actor, named in errors */
    ActorRef<?> ref();

    /** @return whether the owning actor has stopped (a blocked sender gives up) */
    boolean isTerminated();

    /** Counts a message the mailbox did not queue ({@code SystemMetrics.messagesDropped}). */
    void countDropped();

    /**
     * Publishes a message the mailbox dropped as a dead letter.
     *
     * @param item the queued item (a message, or a message in its envelope)
     * @param reason why it was dropped
     */
    void deadLetter(Object item, DeadLetter.Reason reason);

    /**
     * The actor whose react handler is sending on the calling thread, if the calling thread must
     * not block (a pool worker); null if it may block (a thread-based actor or a plain thread).
     *
     * @return the sending actor that must not block, or null
     */
    ActorRef<?> nonBlockingSender();
}
