package io.weft.actors.runtime.internal.cell;

import io.weft.actors.runtime.internal.schedule.PoolFrame;
import java.util.function.LongSupplier;
import org.jctools.queues.MessagePassingQueue;

/**
 * What every send to an actor reads of its cell, besides the activation word: the lifecycle
 * word, the system, the mailbox and the time-stamping clock. The first class of a cell's chain
 * ({@link CellCore}'s design block), so that these fields sit right after the activation word.
 */
abstract class CellIngress extends PoolFrame {

    /* design
     * Placement: HotSpot lays out a superclass's fields before its subclass's, and within a class
     * the ints before the references. So these fields take offsets 16-31 of every cell (after the
     * header's 12 bytes and `active` at 12), and the fields CellCore declares follow them, with
     * the per-message owner writes (`continuation`, `sender`) last, at 72-79 of an 80-byte cell.
     * Objects are 8-byte aligned and cache lines 64 bytes, so the 8 placements of a cell relative
     * to a line are equally likely; two fields at offsets A < B share a line in
     * 8 - (floor(B/8) - floor(A/8)) of them. What senders read ends at 28 (8-byte unit 3) and the
     * first owner write starts at 72 (unit 9): a loop of reacts, which stores its continuation
     * twice per message, takes the senders' line in 2 of the 8 placements (in 4 of 8 with these
     * fields declared in CellCore after its `id`, a long, which HotSpot places first). Padding
     * the two groups apart in every placement would cost 56 bytes per idle actor; this order
     * costs none (the cell stays 80 bytes).
     */

    /** Read as a field (a volatile load), written through CellCore's LIFECYCLE (CAS, setVolatile). */
    volatile int lifecycle;

    final CellHost system;

    final MessagePassingQueue<Object> mailbox;

    /** Set by a time-stamping scheduler at initSchedule (Prokopec 2016, §4); null on the default path. */
    LongSupplier stampClock;

    CellIngress(CellHost system, MessagePassingQueue<Object> mailbox) {
        this.system = system;
        this.mailbox = mailbox;
    }
}
