package io.weft.actors.runtime.internal.mailbox;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The chunked array form of an {@link AdaptiveQueue}: slots in arrays of {@link #CHUNK} references,
 * linked chunk to chunk; a producer claims a slot with one atomic add on the producer index, the
 * consumer reads the slots in index order. The producer and consumer fields sit on different cache
 * lines (padding classes, as JCTools lays out its queues).
 */
final class ChunkedForm extends ChunkedFormConsumer {

    /* design
     * Index i lives in slot i - base of the chunk whose base <= i < base + CHUNK; chunks are never
     * reused, so a slot is written once (by the producer that claimed it) and read once.
     *
     * Producer: reads pChunk, then claims i = getAndAdd(pIndex, 1), then walks forward from the chunk
     * it read (appending a chunk by CAS on `next` where there is none) to the chunk of i, and stores
     * the item with release. pChunk only ever points to a chunk holding an index already claimed,
     * and it was read before the claim, so i >= its base: a walk forward always finds the slot.
     * pChunk moves by CAS from the value the producer read, so it only moves forward.
     *
     * Consumer: reads slot cIndex with acquire; null means "claimed, not yet stored" or "not
     * claimed" (relaxedPoll returns null, as JCTools' relaxedPoll does for a linked node not yet
     * linked). It nulls the slot it read (so a drained chunk keeps no message alive) and publishes
     * cIndex with release (size() from other threads).
     *
     * Closing (only the consumer, and only when cIndex == pIndex): CAS pIndex from cIndex to
     * cIndex | CLOSED. On success every index was stored and taken, and every later claim returns
     * a negative index, so its producer puts nothing here and goes back to the AdaptiveQueue's tail
     * (which the consumer turns into `successor`, a node written before the CAS and read by a
     * producer only after its claim saw the CLOSED bit). No item is left behind in a closed form.
     *
     * isEmpty(): cIndex == pIndex without the CLOSED bit, pIndex read volatile: a claim (a full
     * fence) that precedes the read is seen, so the activation protocol's owner re-check (Cell I2)
     * sees every send whose claim came first.
     */

    /** References per chunk. */
    static final int CHUNK = 128;

    /** The bit of pIndex that marks a closed form. */
    static final long CLOSED = Long.MIN_VALUE;

    private static final VarHandle P_INDEX;
    private static final VarHandle P_CHUNK;
    private static final VarHandle C_INDEX;
    private static final VarHandle NEXT;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            P_INDEX = l.findVarHandle(ChunkedFormProducer.class, "pIndex", long.class);
            P_CHUNK = l.findVarHandle(ChunkedFormProducer.class, "pChunk", Chunk.class);
            C_INDEX = l.findVarHandle(ChunkedFormConsumer.class, "cIndex", long.class);
            NEXT = l.findVarHandle(Chunk.class, "next", Chunk.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long q00, q01, q02, q03, q04, q05, q06, q07;

    /** One chunk: CHUNK slots for the indices base to base + CHUNK - 1. */
    static final class Chunk {
        final long base;
        final Object[] slots = new Object[CHUNK];
        @SuppressWarnings("unused") // through NEXT
        volatile Chunk next;

        Chunk(long base) {
            this.base = base;
        }
    }

    /** @param linkedEnd the last node of the linked form before this one */
    ChunkedForm(AdaptiveQueue.Node linkedEnd) {
        super(linkedEnd, new Chunk(0));
    }

    private long lvPIndex() {
        return (long) P_INDEX.getVolatile(this);
    }

    private long gaaPIndex() {
        return (long) P_INDEX.getAndAdd(this, 1L);
    }

    private boolean casPIndex(long expected, long next) {
        return P_INDEX.compareAndSet(this, expected, next);
    }

    private Chunk lvPChunk() {
        return (Chunk) P_CHUNK.getVolatile(this);
    }

    private long laCIndex() {
        return (long) C_INDEX.getAcquire(this);
    }

    private void soCIndex(long value) {
        C_INDEX.setRelease(this, value);
    }

    private static Chunk laNext(Chunk c) {
        return (Chunk) NEXT.getAcquire(c);
    }

    /**
     * Queues {@code item}; any producer.
     *
     * @return false if the consumer closed this form (nothing stored: the caller queues again
     *     through the AdaptiveQueue's tail)
     */
    boolean offer(Object item) {
        Chunk start = lvPChunk();
        long i = gaaPIndex();
        if (i < 0) {
            return false;
        }
        Chunk c = start;
        if (i >= c.base + CHUNK) {
            c = chunkOf(start, i);
        }
        SLOT.setRelease(c.slots, (int) (i - c.base), item);
        return true;
    }

    /** Walks (and grows) the chain from {@code start} to the chunk of index {@code i}. */
    private Chunk chunkOf(Chunk start, long i) {
        Chunk c = start;
        while (i >= c.base + CHUNK) {
            Chunk n = laNext(c);
            if (n == null) {
                Chunk fresh = new Chunk(c.base + CHUNK);
                Chunk witness = (Chunk) NEXT.compareAndExchange(c, (Chunk) null, fresh);
                n = witness == null ? fresh : witness;
            }
            c = n;
        }
        P_CHUNK.compareAndSet(this, start, c);
        return c;
    }

    /** The next item, or null if none is stored at the consumer's index yet; the consumer only. */
    Object relaxedPoll() {
        long i = cIndex;
        Chunk c = cChunk;
        int off = (int) (i - c.base);
        if (off == CHUNK) {
            Chunk n = laNext(c);
            if (n == null) {
                return null;
            }
            cChunk = c = n;
            off = 0;
        }
        Object[] slots = c.slots;
        Object item = SLOT.getAcquire(slots, off);
        if (item != null) {
            slots[off] = null;
            soCIndex(i + 1);
        }
        return item;
    }

    /** The next item without taking it, or null; the consumer only. */
    Object relaxedPeek() {
        long i = cIndex;
        Chunk c = cChunk;
        int off = (int) (i - c.base);
        if (off == CHUNK) {
            c = laNext(c);
            if (c == null) {
                return null;
            }
            off = 0;
        }
        return SLOT.getAcquire(c.slots, off);
    }

    /** Whether every claimed index was taken (pIndex read volatile; see the design block). */
    boolean isEmpty() {
        return laCIndex() == (lvPIndex() & ~CLOSED);
    }

    /** Claimed and not yet taken; approximate from other threads than the consumer. */
    long size() {
        return Math.max(0L, (lvPIndex() & ~CLOSED) - laCIndex());
    }

    /** Counts a poll that found nothing and returns the count so far; the consumer only. */
    int emptyPoll() {
        return ++emptyPolls;
    }

    /** Items taken out so far; the consumer only. */
    long taken() {
        return cIndex;
    }

    /**
     * Closes this form if it is empty; the consumer only.
     *
     * @param next the node producers continue on (read by a producer after its claim fails)
     * @return whether it closed (then no item is or will be stored here)
     */
    boolean closeIfEmpty(AdaptiveQueue.Node next) {
        long i = cIndex;
        successor = next;
        return casPIndex(i, i | CLOSED);
    }

    /** The node the consumer continues the linked form with; set before the close (see design). */
    AdaptiveQueue.Node successor() {
        return successor;
    }
}

/** Padding before the producer fields. */
abstract class ChunkedFormPad0 {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
}

/** The producers' fields, on a line of their own. */
abstract class ChunkedFormProducer extends ChunkedFormPad0 {
    /** Next index to claim; the CLOSED bit once the consumer closed the form. */
    volatile long pIndex;
    /** A chunk whose base is at most every later claim (it only moves forward). */
    volatile ChunkedForm.Chunk pChunk;

    ChunkedFormProducer(ChunkedForm.Chunk first) {
        this.pChunk = first;
    }
}

/** Padding between the producer and the consumer fields. */
abstract class ChunkedFormPad1 extends ChunkedFormProducer {
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    ChunkedFormPad1(ChunkedForm.Chunk first) {
        super(first);
    }
}

/** The consumer's fields. */
abstract class ChunkedFormConsumer extends ChunkedFormPad1 {
    /** Next index to take; written by the consumer with release (read by others with acquire). */
    long cIndex;
    /** The chunk of cIndex (or the one before, when cIndex is at its end). */
    ChunkedForm.Chunk cChunk;
    /** The last node of the linked form this one follows. */
    final AdaptiveQueue.Node linkedEnd;
    /** The node the linked form resumes with after a close. */
    AdaptiveQueue.Node successor;
    /** Polls that found no item (the switch-back hysteresis of AdaptiveQueue). */
    int emptyPolls;

    ChunkedFormConsumer(AdaptiveQueue.Node linkedEnd, ChunkedForm.Chunk first) {
        super(first);
        this.linkedEnd = linkedEnd;
        this.cChunk = first;
    }
}
