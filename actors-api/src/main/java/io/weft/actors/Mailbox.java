package io.weft.actors;

/**
 * What kind of queue an actor's channels use.
 *
 * <p>{@link #unbounded()} (the default) never refuses a message. {@link #bounded(int, Overflow)}
 * holds at most {@code capacity} messages per channel (the main channel and each opened one), under
 * any number of concurrent senders, and applies its {@link Overflow} policy to a message that does
 * not fit. Every message it does not queue is counted in {@link SystemMetrics#messagesDropped()}: a
 * dropped one ({@code DROP_NEW}, {@code DROP_OLD}, {@code BLOCK} giving up) is also published to
 * dead letters; a refused one ({@code FAIL}, or {@code BLOCK} from a react handler) is thrown back
 * to the sender, who still holds it, and is not a dead letter.
 *
 * @param capacity the bound per channel, or {@link Integer#MAX_VALUE} for unbounded
 * @param overflow what happens to a message that does not fit
 */
public record Mailbox(int capacity, Overflow overflow) {

    private static final Mailbox UNBOUNDED = new Mailbox(Integer.MAX_VALUE, Overflow.FAIL);

    /**
     * Validates the arguments.
     *
     * @param capacity at least 1
     * @param overflow not null
     */
    public Mailbox {
        if (capacity < 1) {
            throw new IllegalArgumentException("mailbox capacity must be at least 1, was " + capacity);
        }
        java.util.Objects.requireNonNull(overflow, "overflow");
    }

    /** What a bounded mailbox does with a message that does not fit. */
    public enum Overflow {
        /** Drop the new message (counted as dropped, to dead letters). */
        DROP_NEW,
        /** Drop the oldest queued message (counted as dropped, to dead letters) and queue the new one. */
        DROP_OLD,
        /**
         * Throw {@link MailboxFullException} to the sender; the message is not queued, is counted
         * as dropped, and is not a dead letter (the sender has it and the exception).
         */
        FAIL,
        /**
         * Block the sender until there is room; only thread-based senders may block. A react
         * handler that sends gets an {@link IllegalStateException} instead (counted as dropped, not
         * a dead letter); a waiting sender whose recipient stops gives up, and its message is
         * counted as dropped and published to dead letters ({@code RECIPIENT_STOPPED}).
         */
        BLOCK
    }

    /**
     * An unbounded mailbox: a JCTools MPSC linked queue, 48 bytes while empty.
     *
     * @return the default mailbox
     */
    public static Mailbox unbounded() {
        return UNBOUNDED;
    }

    /**
     * A bounded mailbox.
     *
     * @param capacity messages per channel, at least 1
     * @param overflow the policy for messages that do not fit
     * @return the mailbox kind
     */
    public static Mailbox bounded(int capacity, Overflow overflow) {
        return new Mailbox(capacity, overflow);
    }

    /**
     * Whether this mailbox has a bound.
     *
     * @return true unless unbounded
     */
    public boolean isBounded() {
        return capacity != Integer.MAX_VALUE;
    }
}
