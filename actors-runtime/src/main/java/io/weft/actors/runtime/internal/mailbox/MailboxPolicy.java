package io.weft.actors.runtime.internal.mailbox;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;
import io.weft.actors.Mailbox;
import io.weft.actors.MailboxFullException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.atomic.unpadded.MpscChunkedAtomicUnpaddedArrayQueue;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;
import org.slf4j.LoggerFactory;
import io.weft.actors.runtime.internal.telemetry.Telemetry;

/**
 * Makes the queues of one mailbox kind and applies its overflow policy.
 *
 * <p>The unbounded queue is an {@link AdaptiveQueue} (48 bytes empty, linked while short; chunked
 * under a backlog or concurrent producers), or with {@code -Dweft.mailbox=linked} JCTools' unpadded
 * linked MPSC queue (48 bytes empty); the bounded ones are JCTools MPSC queues of the
 * {@code atomic.unpadded} family. An idle actor's queue is unpadded (millions of idle actors fit):
 * an AdaptiveQueue that a burst switched to its chunked form (padded, about 800 bytes with its
 * chunk) gives it back when the actor goes idle with the queue empty
 * ({@link AdaptiveQueue#idle}; {@code -Dweft.mailbox.idleGiveBack=false} keeps it until the form
 * has carried 128 messages and the actor's turns have found it empty on 32 polls). None uses
 * {@code sun.misc.Unsafe} (no warning on JDK 24+). A bounded queue carries its own {@link Mailbox} spec, so a cell needs no
 * policy field: the common unbounded send is one {@code instanceof} test and an {@code offer}.
 * A {@code DROP_OLD} mailbox is a {@link DropOldQueue}, whose producers evict the oldest message;
 * the other bounded kinds are a {@link BoundedQueue}, whose senders reserve a slot before they
 * queue, so that neither holds more than its capacity under any number of concurrent senders.
 */
public final class MailboxPolicy {

    /**
     * Whether an unbounded mailbox is an {@link AdaptiveQueue} (linked while short, chunked under a
     * backlog or several producers), the default, or JCTools' linked queue, with
     * {@code -Dweft.mailbox=linked} (the opt-out; any other value keeps the default, and a value
     * other than {@code adaptive} is logged once at WARN). With one
     * producer thread the adaptive queue used 0.66-0.74x the linked queue's CPU per message in the
     * {@code become} and one-handler loop styles and slowed no style; with several producers it cut
     * Weft's CPU per message significantly at 8 producers only (at load 10-19; no change shown on a
     * quiet machine); on the Savina set no workload was slower at p < 0.05 in the sets after the
     * first (pingpong 1.40x with p 0.036 in the first, level in the later ones), though
     * {@code count} (one worker fills 1,000,000 messages, then drains them) has been 1.04-1.54x
     * slower in median, the chunked form's send costing about 1 ns more than JCTools' exchange and
     * node on one core (docs/benchmarks.md, "Where the time goes", "The mailbox").
     */
    static final boolean ADAPTIVE = adaptive(System.getProperty("weft.mailbox"),
            LoggerFactory.getLogger(MailboxPolicy.class)::warn);

    /**
     * Reads the {@code weft.mailbox} property's value.
     *
     * @param value the property's value, or null if it is not set
     * @param warn where the warning about an unknown value goes
     * @return false for {@code linked}, true for {@code adaptive}, for no value, and for any other
     *     value (which is reported to {@code warn})
     */
    static boolean adaptive(String value, Consumer<String> warn) {
        if (value == null || value.equals("adaptive")) {
            return true;
        }
        if (value.equals("linked")) {
            return false;
        }
        warn.accept("-Dweft.mailbox=" + value + " is not a mailbox kind: the accepted values are adaptive (the default)"
                + " and linked; using adaptive");
        return true;
    }

    private final Mailbox mailbox;

    private MailboxPolicy(Mailbox mailbox) {
        this.mailbox = mailbox;
    }

    public static MailboxPolicy of(Mailbox mailbox) {
        return new MailboxPolicy(mailbox);
    }

    public MessagePassingQueue<Object> newQueue() {
        if (!mailbox.isBounded()) {
            return newUnbounded();
        }
        if (mailbox.overflow() == Mailbox.Overflow.DROP_OLD) {
            return new DropOldQueue(mailbox.capacity());
        }
        return new BoundedQueue(mailbox);
    }

    /** A queue of the same kind as {@code queue} (for opened channels). */
    public static MessagePassingQueue<Object> newQueueLike(MessagePassingQueue<Object> queue) {
        if (queue instanceof DropOldQueue d) {
            return new DropOldQueue(d.capacity());
        }
        return queue instanceof BoundedQueue b ? new BoundedQueue(b.mailbox) : newUnbounded();
    }

    private static MessagePassingQueue<Object> newUnbounded() {
        return ADAPTIVE ? new AdaptiveQueue() : new MpscLinkedAtomicUnpaddedQueue<>();
    }

    /**
     * A bounded mailbox: an MPSC chunked array queue that knows its capacity and overflow policy,
     * and holds at most that many messages, whatever the number of concurrent senders.
     */
    static final class BoundedQueue extends MpscChunkedAtomicUnpaddedArrayQueue<Object> {

        /* design
         * Invariant B: held <= capacity at all times, and the queue holds at most `held` messages.
         * `held` counts slots: a producer reserves one by CAS (only while held < capacity) before
         * it offers, and gives it back only if that offer fails; the consumer gives one back after
         * each message it takes out (poll, relaxedPoll, and drain, which JCTools runs through
         * relaxedPoll). So the queue never holds more than `held` messages, and `held` never
         * exceeds the capacity.
         *
         * The queue itself cannot be the bound: JCTools rounds a chunked queue's capacity up to a
         * power of two, at least 4, and a check of size() before offer races between senders (both
         * read "room for one" and both offer). Its rounded capacity is at least `held`, so an offer
         * within a reserved slot never finds the queue full; if it ever did, the slot is returned
         * and the message is refused like any overflow.
         *
         * size() reads `held`: exact and never above the capacity (a message whose sender holds a
         * slot but has not linked it yet counts already). isEmpty() stays the queue's own test, as
         * the activation protocol (Cell I2) needs: a sender's offer precedes its read of the
         * activation word, and the owner's re-check reads the queue. The unbounded mailbox (the
         * hot path, MailboxPolicy.offer) does not go through here.
         */

        private static final VarHandle HELD;

        static {
            try {
                HELD = MethodHandles.lookup().findVarHandle(BoundedQueue.class, "held", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Mailbox mailbox;
        private final int bound;
        @SuppressWarnings("unused") // through HELD
        private volatile int held;

        BoundedQueue(Mailbox mailbox) {
            // the chunk must be smaller than the capacity rounded up to a power of two (JCTools)
            super(chunkSize(mailbox.capacity()), Math.max(4, mailbox.capacity()));
            this.mailbox = mailbox;
            this.bound = mailbox.capacity();
        }

        static int chunkSize(int capacity) {
            int max = Math.max(4, capacity);
            int roundedUp = Integer.highestOneBit(max - 1) << 1;
            return Math.min(64, roundedUp / 2);
        }

        private int lvHeld() {
            return (int) HELD.getVolatile(this);
        }

        private int caeHeld(int expected, int next) {
            return (int) HELD.compareAndExchange(this, expected, next);
        }

        private void gaaHeld(int delta) {
            HELD.getAndAdd(this, delta);
        }

        /** Reserves a slot if fewer than the capacity are held (invariant B). */
        private boolean reserve() {
            int n = lvHeld();
            while (n < bound) {
                int witness = caeHeld(n, n + 1);
                if (witness == n) {
                    return true;
                }
                n = witness;
            }
            return false;
        }

        private void releaseSlot() {
            gaaHeld(-1);
        }

        /** Queues {@code item} if a slot is free; any producer, any number of them. */
        @Override
        public boolean offer(Object item) {
            if (!reserve()) {
                return false;
            }
            if (super.offer(item)) {
                return true;
            }
            releaseSlot();
            return false;
        }

        @Override
        public boolean relaxedOffer(Object item) {
            return offer(item);
        }

        @Override
        public Object poll() {
            Object item = super.poll();
            if (item != null) {
                releaseSlot();
            }
            return item;
        }

        @Override
        public Object relaxedPoll() {
            Object item = super.relaxedPoll();
            if (item != null) {
                releaseSlot();
            }
            return item;
        }

        @Override
        public int fill(Supplier<Object> s, int limit) {
            int n = 0;
            while (n < limit && reserveAndOffer(s)) {
                n++;
            }
            return n;
        }

        private boolean reserveAndOffer(Supplier<Object> s) {
            if (!reserve()) {
                return false;
            }
            if (super.offer(s.get())) {
                return true;
            }
            releaseSlot();
            return false;
        }

        /** @return messages held, never above the capacity (invariant B) */
        @Override
        public int size() {
            return lvHeld();
        }

        @Override
        public int capacity() {
            return bound;
        }
    }

    /**
     * Queues {@code item} or applies the overflow policy.
     *
     * @return true if queued (the caller activates the actor)
     */
    public static boolean offer(MailboxOwner cell, MessagePassingQueue<Object> queue, Object item) {
        // kept small so that the JIT inlines it into every send: the unbounded queue is the
        // common case, and the policies live in offerBounded
        if (ADAPTIVE) {
            if (queue instanceof AdaptiveQueue unbounded) {
                unbounded.offer(item);
                return true;
            }
        } else if (queue instanceof MpscLinkedAtomicUnpaddedQueue<Object> unbounded) {
            unbounded.offer(item);
            return true;
        }
        return offerBounded(cell, queue, item);
    }

    /**
     * {@link #offer} for the bounded and drop-oldest kinds. Every message it does not queue is
     * counted in {@code messagesDropped}: dropped ones (DROP_NEW, DROP_OLD's evicted, BLOCK's when
     * the actor stopped) also go to dead letters; refused ones (FAIL, BLOCK from a react handler)
     * are thrown back to the sender, who still holds the message, and are not dead letters.
     */
    private static boolean offerBounded(MailboxOwner cell, MessagePassingQueue<Object> queue, Object item) {
        if (queue instanceof DropOldQueue dropOld) {
            Object evicted = dropOld.offerEvicting(item);
            if (evicted != null) {
                cell.countDropped();
                cell.deadLetter(evicted, DeadLetter.Reason.MAILBOX_OVERFLOW);
            }
            return true;
        }
        if (!(queue instanceof BoundedQueue bounded)) {
            queue.offer(item);
            return true;
        }
        if (bounded.offer(item)) {
            return true;
        }
        Mailbox mailbox = bounded.mailbox;
        Telemetry.mailboxOverflow(cell.ref(), mailbox, Envelope.unwrap(item));
        switch (mailbox.overflow()) {
            case DROP_NEW -> {
                cell.countDropped();
                cell.deadLetter(item, DeadLetter.Reason.MAILBOX_OVERFLOW);
                return false;
            }
            case FAIL -> {
                cell.countDropped();
                throw new MailboxFullException("mailbox of " + cell.ref() + " is full (capacity " + mailbox.capacity() + "); "
                        + Envelope.unwrap(item).getClass().getName() + " not queued (counted in messagesDropped, not a dead"
                        + " letter): retry later, or give the actor a larger capacity or another overflow policy");
            }
            case BLOCK -> {
                return offerBlocking(cell, bounded, item);
            }
            default -> throw new IllegalStateException("overflow policy " + mailbox.overflow()
                    + " is not supported yet for " + cell.ref());
        }
    }

    /** BLOCK: waits for a free slot; gives up (dead letter) only if the actor stops meanwhile. */
    private static boolean offerBlocking(MailboxOwner cell, BoundedQueue bounded, Object item) {
        ActorRef<?> sender = cell.nonBlockingSender();
        if (sender != null) {
            cell.countDropped();
            throw new IllegalStateException("mailbox of " + cell.ref() + " is full and its policy is BLOCK,"
                    + " but the sender " + sender + " is a react handler on a pool worker, which must not block;"
                    + " send from a thread-based actor (spawnThread, switchToThread) or use another overflow policy");
        }
        // The actor's end sets STOPPED before it drains its queues, and this loop tests STOPPED
        // before each retry, so a sender still waiting here when the actor stops gives up at its
        // next wake-up: its message is counted as dropped and published as a dead letter. (A retry
        // that passed the test just before the stop and got in is drained to dead letters: Cell I4.)
        long park = 1_000;
        while (true) {
            LockSupport.parkNanos(park);
            if (cell.isTerminated()) {
                cell.countDropped();
                cell.deadLetter(item, DeadLetter.Reason.RECIPIENT_STOPPED);
                return false;
            }
            if (bounded.offer(item)) {
                return true;
            }
            park = Math.min(park * 2, 1_000_000);
        }
    }
}
