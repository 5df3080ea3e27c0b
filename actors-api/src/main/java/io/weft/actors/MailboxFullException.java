package io.weft.actors;

/**
 * Thrown to a sender by a full bounded mailbox with the {@link Mailbox.Overflow#FAIL} policy. The
 * message was not queued; it is counted in {@link SystemMetrics#messagesDropped()} and is not
 * published to dead letters, since the sender has it back with this exception (to retry, or to
 * handle as it sees fit).
 */
public final class MailboxFullException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message the description */
    public MailboxFullException(String message) {
        super(message);
    }
}
