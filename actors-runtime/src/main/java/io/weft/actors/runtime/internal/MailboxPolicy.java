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
 * warning on JDK 24+). A bounded queue carries its own {@link Mailbox} spec, so a cell needs no
 * policy field: the common unbounded send is one {@code instanceof} test and an {@code offer}.
 * A {@code DROP_OLD} mailbox is a {@link DropOldQueue}, whose producers evict the oldest message.
 */
final class MailboxPolicy {

    private final Mailbox mailbox;

    private MailboxPolicy(Mailbox mailbox) {
        this.mailbox = mailbox;
    }

    static MailboxPolicy of(Mailbox mailbox) {
        return new MailboxPolicy(mailbox);
    }

    MessagePassingQueue<Object> newQueue() {
        if (!mailbox.isBounded()) {
            return new MpscLinkedAtomicUnpaddedQueue<>();
        }
        if (mailbox.overflow() == Mailbox.Overflow.DROP_OLD) {
            return new DropOldQueue(mailbox.capacity());
        }
        return new BoundedQueue(mailbox);
    }

    /** A queue of the same kind as {@code queue} (for opened channels). */
    static MessagePassingQueue<Object> newQueueLike(MessagePassingQueue<Object> queue) {
        if (queue instanceof DropOldQueue d) {
            return new DropOldQueue(d.capacity());
        }
        return queue instanceof BoundedQueue b ? new BoundedQueue(b.mailbox) : new MpscLinkedAtomicUnpaddedQueue<>();
    }

    /** A bounded mailbox: an MPSC chunked array queue that knows its capacity and overflow policy. */
    static final class BoundedQueue extends MpscChunkedAtomicUnpaddedArrayQueue<Object> {
        final Mailbox mailbox;

        BoundedQueue(Mailbox mailbox) {
            // the chunk must be smaller than the capacity rounded up to a power of two (JCTools)
            super(chunkSize(mailbox.capacity()), Math.max(4, mailbox.capacity()));
            this.mailbox = mailbox;
        }

        static int chunkSize(int capacity) {
            int max = Math.max(4, capacity);
            int roundedUp = Integer.highestOneBit(max - 1) << 1;
            return Math.min(64, roundedUp / 2);
        }
    }

    /**
     * Queues {@code item} or applies the overflow policy.
     *
     * @return true if queued (the caller activates the actor)
     */
    static boolean offer(Cell<?> cell, MessagePassingQueue<Object> queue, Object item) {
        // kept small so that the JIT inlines it into every send: the unbounded queue is the
        // common case, and the policies live in offerBounded
        if (queue instanceof MpscLinkedAtomicUnpaddedQueue<Object> unbounded) {
            unbounded.offer(item);
            return true;
        }
        return offerBounded(cell, queue, item);
    }

    /** {@link #offer} for the bounded and drop-oldest kinds. */
    private static boolean offerBounded(Cell<?> cell, MessagePassingQueue<Object> queue, Object item) {
        if (queue instanceof DropOldQueue dropOld) {
            Object evicted = dropOld.offerEvicting(item);
            if (evicted != null) {
                cell.weftSystem().metrics().dropped();
                cell.deadLetter(evicted, DeadLetter.Reason.MAILBOX_OVERFLOW);
            }
            return true;
        }
        if (!(queue instanceof BoundedQueue bounded)) {
            queue.offer(item);
            return true;
        }
        Mailbox mailbox = bounded.mailbox;
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
                Cell<?> sender = WeftSystem.current();
                if (sender != null && sender.ownThread() != Thread.currentThread()) {
                    throw new IllegalStateException("mailbox of " + cell.ref() + " is full and its policy is BLOCK,"
                            + " but the sender " + sender.ref() + " is a react handler on a pool worker, which must not block");
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
