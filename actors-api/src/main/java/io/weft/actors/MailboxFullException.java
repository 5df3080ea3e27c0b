package io.weft.actors;

/** Thrown to a sender by a bounded mailbox with the {@link Mailbox.Overflow#FAIL} policy. */
public final class MailboxFullException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message the description */
    public MailboxFullException(String message) {
        super(message);
    }
}
