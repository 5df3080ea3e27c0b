package io.weft.actors.runtime.internal;

import io.weft.actors.DeadLetter;
import io.weft.actors.Mailbox;
import io.weft.actors.MailboxFullException;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.atomic.unpadded.MpscChunkedAtomicUnpaddedArrayQueue;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;

/**
 * Makes the queues of one mailbox kind and applies its overflow policy.
 *
 * <p>Queues are JCTools MPSC queues of the {@code atomic.unpadded} family: no padding (an empty
 * unbounded queue is 48 bytes, so millions of idle actors fit) and no {@code sun.misc.Unsafe} (no
 * warning on JDK 24+).
 */
abstract class MailboxPolicy {

    static final MailboxPolicy UNBOUNDED = new MailboxPolicy() {
        @Override
        MessagePassingQueue<Object> newQueue() {
            return new MpscLinkedAtomicUnpaddedQueue<>();
        }

        @Override
        boolean offer(Cell<?> cell, MessagePassingQueue<Object> queue, Object item) {
            queue.offer(item);
            return true;
        }
    };

    static MailboxPolicy of(Mailbox mailbox) {
        return mailbox.isBounded() ? new Bounded(mailbox) : UNBOUNDED;
    }

    abstract MessagePassingQueue<Object> newQueue();

    /**
     * Queues {@code item} or applies the overflow policy.
     *
     * @return true if queued (the caller activates the actor)
     */
    abstract boolean offer(Cell<?> cell, MessagePassingQueue<Object> queue, Object item);

    /** A bounded mailbox: an MPSC chunked array queue with an exact capacity. */
    static final class Bounded extends MailboxPolicy {
        private final Mailbox mailbox;

        Bounded(Mailbox mailbox) {
            this.mailbox = mailbox;
        }

        @Override
        MessagePassingQueue<Object> newQueue() {
            int capacity = Math.max(4, mailbox.capacity());
            return new MpscChunkedAtomicUnpaddedArrayQueue<>(Math.min(64, capacity), capacity);
        }

        @Override
        boolean offer(Cell<?> cell, MessagePassingQueue<Object> queue, Object item) {
            if (queue.size() < mailbox.capacity() && queue.offer(item)) {
                return true;
            }
            Telemetry.mailboxOverflow(cell, mailbox, Envelope.unwrap(item));
            switch (mailbox.overflow()) {
                case DROP_NEW -> {
                    cell.weftSystem().metrics().dropped();
                    cell.deadLetter(item, DeadLetter.Reason.MAILBOX_OVERFLOW);
                    return false;
                }
                case FAIL -> throw new MailboxFullException("mailbox of " + cell.ref() + " is full (capacity "
                        + mailbox.capacity() + "); " + Envelope.unwrap(item).getClass().getName() + " not queued");
                case BLOCK -> {
                    if (WeftSystem.current() != null && !Thread.currentThread().isVirtual() && WeftSystem.current().ownThread() != Thread.currentThread()) {
                        throw new IllegalStateException("mailbox of " + cell.ref() + " is full and its policy is BLOCK,"
                                + " but the sender is a react handler on a pool worker, which must not block");
                    }
                    long park = 1_000;
                    while (!(queue.size() < mailbox.capacity() && queue.offer(item))) {
                        if (cell.isTerminated()) {
                            cell.deadLetter(item, DeadLetter.Reason.RECIPIENT_STOPPED);
                            return false;
                        }
                        LockSupport.parkNanos(park);
                        park = Math.min(park * 2, 1_000_000);
                    }
                    return true;
                }
                default -> throw new IllegalStateException("overflow policy " + mailbox.overflow()
                        + " is not supported yet for " + cell.ref());
            }
        }
    }
}
