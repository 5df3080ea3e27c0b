package io.weft.actors.runtime.internal.cell;

import io.weft.actors.runtime.internal.schedule.PoolFrame;
import java.util.function.LongSupplier;
import org.jctools.queues.MessagePassingQueue;

/**
 * What every send to an actor reads of its cell, besides the activation word: the lifecycle
 * word, the system, the mailbox and the time-stamping clock. The first class of a cell's chain
 * ({@link CellCore}), so that these fields sit right after the activation word and apart from
 * the owner's per-message writes (design block).
 */
abstract class CellIngress extends PoolFrame {

    /* design
     * Placement. A loop of reacts stores its continuation twice per message (CellTurn's deliver
     * consumes it, react installs the next one), and every send reads this class's fields and
     * `active`, usually on another core: where the two share a cache line, each message takes the
     * line from the senders' caches. Objects are 8-byte aligned and lines 64 bytes, so a cell has
     * 8 equally likely placements relative to a line, and two fields at offsets A < B share a line
     * in 8 - (floor(B/8) - floor(A/8)) of them (none if B - A >= 64).
     *
     * HotSpot (JDK 15 and later) lays out a superclass's fields before its subclass's; within a
     * class its primitives (largest first) before its references (in declaration order), except
     * that a class whose superclass ends with a reference puts its references first, next to it,
     * then its primitives, filling gaps. So (JDK 25, compressed references and class pointers,
     * Unsafe.objectFieldOffset): `active` 12; here lifecycle 16, system 20, mailbox 24, stampClock
     * 28; CellCore's references 32-59, its two booleans 60-61 and `id` 64; CellTurn's continuation
     * 72 and sender 76, the only fields declared after CellCore; 80 bytes. What senders read ends
     * in 8-byte unit 3 and the first per-message write starts in unit 9: they share a line in 2 of
     * the 8 placements. With all of these fields in CellCore (its `id`, a long, first at 16, the
     * send-read references at 32-43, continuation at 72) they shared one in 4 of 8. Padding the
     * two groups apart in every placement would cost 56 bytes per idle actor; this order costs
     * none. One producer into a loop of reacts takes 0.83x the time it took with the
     * order that shared a line in 4 of 8 (docs/benchmarks.md, "Ingress",
     * `bench/results/ingress-cell-layout.txt`). CellFieldOrderTest keeps the
     * declarations where this needs them.
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
