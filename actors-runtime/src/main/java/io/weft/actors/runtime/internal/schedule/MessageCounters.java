package io.weft.actors.runtime.internal.schedule;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The message counts of one system: sent, handled and dropped messages.
 *
 * <p>The hot path (a pool worker of this system sending or handling) bumps plain counters owned by
 * that worker thread; a platform thread outside the pool that sends bumps a counter of its own
 * with a plain store too; every other count uses striped {@link LongAdder}s. Totals add them all.
 * A total read while threads send is approximate (counters read racily); once the system is closed
 * the pool's termination orders every worker's writes before the read, and the totals are exact
 * for every send that happens-before the read (program order, a join, a latch).
 */
public final class MessageCounters {

    /* design
     * The counters live in the scheduling layer because their hot path is a field of the pool
     * worker: a worker of this system's pool (a class test, then an identity test of the owner)
     * bumps its own padded fields with no atomic instruction; any other thread takes a LongAdder
     * stripe. The system's SystemMetrics view (system.Metrics) adds them up.
     *
     * Sends from platform threads outside the pool (main, a broker's consumer, a request thread
     * of a pool) are the ingress path: one such thread may tell actors millions of times, and a
     * LongAdder increment is a locked instruction (a CAS on its base) beside the mailbox's own
     * atomic exchange (producer CPU per tell into 100 actors round-robin 0.78x without it,
     * p 0.03; docs/benchmarks.md "Ingress"). A ThreadLocal count per sending thread measured
     * slower than the CAS (its lookup costs more than the locked instruction saves), so one
     * platform thread at a time owns the `slot`: a SenderCount that it bumps with an opaque store
     * (a plain move on x86, no tearing of the long) after an identity test of `slotThread`. Every
     * other thread outside the pool takes the adder; its test reads `slotThread` here, never the
     * SenderCount, whose line the owner writes on every send (reading it cost 4 producers into
     * one actor 1.45x their time per message relative to Pekko's, p 0.008). Invariants:
     *   S1 a SenderCount is written by its thread only, and its count only grows;
     *   S2 a SenderCount is in `slot` or folded into the adder `sent`, never both and never
     *      neither; a claim (fold the old count, install the new one) and a sum run under `lock`,
     *      so a sum never counts a send twice or not at all;
     *   S3 a count is folded only once its thread has ended: every write of that thread
     *      happens-before isAlive() returning false (JLS §17.4.4), so the folded value is final;
     *   S4 the slot is claimed when it is empty or its owner has ended, by a platform thread
     *      that sends (a tryLock: a sender never waits); nothing grows with the number of
     *      sending threads, also for millions of short-lived ones;
     *   S5 virtual threads never claim the slot: they are many and short-lived (a handler per
     *      request) and would only churn it.
     * A sum reads the slot's count with an opaque load: the count is a single writer's and
     * monotonic, so the sum sees every send that happens-before it; totals read after the
     * senders were joined, or after close for sends ordered before it, are exact
     * (MessageCountersTest).
     */

    private final LongAdder sent = new LongAdder();
    private final LongAdder handled = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final List<WorkerCounters> workers = new CopyOnWriteArrayList<>();
    /**
     * The send count of the one platform thread outside the pool that counts without the adder
     * (S4), or null; read racily by senders (a stale value only sends them to the adder), written
     * under {@link #lock}.
     */
    private SenderCount slot;
    /**
     * The thread of {@link #slot}, or null; kept here and not read from the SenderCount, whose line
     * its owner writes on every send, so that other senders' identity test reads only lines nobody
     * writes (read racily, written under {@link #lock} after {@link #slot}).
     */
    private Thread slotThread;
    private final ReentrantLock lock = new ReentrantLock();

    private static final VarHandle SENT;

    static {
        try {
            SENT = MethodHandles.lookup().findVarHandle(SenderCount.class, "sent", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The sends of one platform thread outside the pool; written only by that thread (S1). */
    static final class SenderCount {
        final Thread thread;
        /** Written with opaque stores by {@link #thread}, read with opaque loads by sums. */
        long sent;

        SenderCount(Thread thread) {
            this.thread = thread;
        }
    }

    /**
     * Counters owned by one pool worker; written only by that worker. Padded on both sides (field
     * layout puts a superclass's fields first) so that two workers' counters, allocated one after
     * the other, never share a cache line, as every message bumps them (false sharing grows with
     * the number of workers).
     */
    public static final class WorkerCounters extends CounterFields {
        long p10, p11, p12, p13, p14, p15, p16, p17;

        WorkerCounters(MessageCounters owner) {
            super(owner);
        }
    }

    /** The counters, after the leading padding. */
    static class CounterFields extends CounterPadding {
        /** The counters these belong to (a worker's pool serves one system). */
        final MessageCounters owner;
        long sent;
        long handled;

        CounterFields(MessageCounters owner) {
            this.owner = owner;
        }
    }

    /** Leading padding of {@link WorkerCounters}. */
    static class CounterPadding {
        long p00, p01, p02, p03, p04, p05, p06, p07;
    }

    /** @return a worker's own counters, added to this system's totals */
    WorkerCounters newWorkerCounters() {
        WorkerCounters c = new WorkerCounters(this);
        workers.add(c);
        return c;
    }

    private WorkerCounters local() {
        return Thread.currentThread() instanceof Worker w && w.counters.owner == this ? w.counters : null;
    }

    /** Counts a message queued by a send. */
    public void sent() {
        WorkerCounters c = local();
        if (c != null) {
            c.sent++;
        } else {
            sentOutsidePool();
        }
    }

    /** Counts one message handled (or failed) by a handler, outside a batch's count. */
    public void handled() {
        WorkerCounters c = local();
        if (c != null) {
            c.handled++;
        } else {
            handledOutsidePool();
        }
    }

    /**
     * Counts {@code n} messages handled at once: an event-based turn adds the messages of its
     * batch at the batch's end (CellTurn.processBatch), one call per batch instead of one per
     * message, and a thread-based actor counts its receives in a field of its own and adds them
     * in batches (CellThreadMode), so that threads outside the pool do not meet on the striped
     * adder once per message.
     *
     * @param n messages handled, not negative
     */
    public void handled(int n) {
        WorkerCounters c = local();
        if (c != null) {
            c.handled += n;
        } else {
            handled.add(n);
        }
    }

    // The striped adders are out of line so that sent() and handled() stay small enough for the
    // JIT to inline into every send and every handled message.
    private void sentOutsidePool() {
        Thread t = Thread.currentThread();
        if (slotThread == t) {
            SenderCount s = slot; // written by this thread before slotThread
            SENT.setOpaque(s, s.sent + 1); // S1: this thread is the only writer
        } else {
            sentByAnother(t);
        }
    }

    /** A send of a thread outside the pool that does not own the slot: the adder, or a claim of the slot. */
    private void sentByAnother(Thread t) {
        Thread owner = slotThread;
        if (!t.isVirtual() && (owner == null || !owner.isAlive()) && lock.tryLock()) { // S4, S5
            try {
                SenderCount s = slot;
                if (s == null || !s.thread.isAlive()) {
                    if (s != null) {
                        sent.add((long) SENT.getOpaque(s)); // S3: final, its thread has ended
                    }
                    SenderCount mine = new SenderCount(t);
                    mine.sent = 1;
                    slot = mine;
                    slotThread = t;
                    return;
                }
            } finally {
                lock.unlock();
            }
        }
        sent.increment();
    }

    /** @return the thread that owns the slot (S4), or null */
    Thread slotOwner() {
        lock.lock();
        try {
            return slot == null ? null : slot.thread;
        } finally {
            lock.unlock();
        }
    }

    private void handledOutsidePool() {
        handled.increment();
    }

    /** Counts a message a full mailbox did not queue. */
    public void dropped() {
        dropped.increment();
    }

    /** @return messages sent so far (approximate while workers run) */
    public long sentCount() {
        long n;
        lock.lock();
        try {
            SenderCount s = slot;
            n = sent.sum() + (s == null ? 0 : (long) SENT.getOpaque(s)); // under the lock: no claim meanwhile (S2)
        } finally {
            lock.unlock();
        }
        for (WorkerCounters c : workers) {
            n += c.sent;
        }
        return n;
    }

    /** @return messages handled so far (approximate while workers run) */
    public long handledCount() {
        long n = handled.sum();
        for (WorkerCounters c : workers) {
            n += c.handled;
        }
        return n;
    }

    /** @return messages a full mailbox did not queue */
    public long droppedCount() {
        return dropped.sum();
    }
}
