package io.weft.actors.runtime.internal.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The message counts of one system: sent, handled and dropped messages.
 *
 * <p>The hot path (a pool worker of this system sending or handling) bumps plain counters owned by
 * that worker thread; a platform thread outside the pool that sends bumps a plain counter of its
 * own too; every other count uses striped {@link LongAdder}s. Totals add them all. A total read
 * while threads send is approximate (plain fields, read racily); once the system is closed the
 * pool's termination orders every worker's writes before the read, and the totals are exact for
 * what the reading thread's program order or a join orders before the read.
 */
public final class MessageCounters {

    /* design
     * The counters live in the scheduling layer because their hot path is a field of the pool
     * worker: a worker of this system's pool (a class test, then an identity test of the owner)
     * bumps its own padded fields with no atomic instruction; any other thread takes a LongAdder
     * stripe. The system's SystemMetrics view (system.Metrics) adds them up.
     *
     * Sends from platform threads outside the pool (a request handler, a broker's consumer, main)
     * are the ingress path: one such thread may tell an actor millions of times, and a LongAdder's
     * increment is a locked instruction (a CAS on its base) on top of the mailbox's own atomic
     * exchange. So each such thread counts its sends in a plain field of a SenderCount of its own,
     * found through a ThreadLocal of this system (no atomic instruction); the counts are
     * registered in `senders`, and the count of a thread that has ended is folded into the adder
     * (its last write happens-before isAlive() returning false, JLS §17.4.4) when the next thread
     * registers, so the list holds live threads only. Register, fold and sum run under `lock`, so
     * a fold never counts a thread twice or not at all in a sum. Virtual threads take the adder:
     * a ThreadLocal value per virtual thread would cost more than it saves, as they are many and
     * short-lived.
     */

    private final LongAdder sent = new LongAdder();
    private final LongAdder handled = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final List<WorkerCounters> workers = new CopyOnWriteArrayList<>();
    /** The send count of the platform thread outside the pool that is running, or null. */
    private final ThreadLocal<SenderCount> sender = new ThreadLocal<>();
    /** The send counts of live platform threads outside the pool; under {@link #lock}. */
    private final List<SenderCount> senders = new ArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();

    /** The sends of one platform thread outside the pool; written only by that thread. */
    static final class SenderCount {
        final Thread thread;
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

    /** Counts a message handled (or failed) by a handler. */
    public void handled() {
        WorkerCounters c = local();
        if (c != null) {
            c.handled++;
        } else {
            handledOutsidePool();
        }
    }

    /**
     * Counts {@code n} messages handled at once: a thread-based actor counts its receives in a
     * field of its own and adds them here in batches (CellThreadMode), so that threads outside the
     * pool do not meet on the striped adder once per message.
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
        if (t.isVirtual()) {
            sent.increment();
            return;
        }
        SenderCount c = sender.get();
        if (c == null) {
            c = register(t);
        }
        c.sent++;
    }

    /** The first send of a platform thread outside the pool: its count, registered; ended threads' folded. */
    private SenderCount register(Thread t) {
        SenderCount c = new SenderCount(t);
        lock.lock();
        try {
            senders.removeIf(s -> {
                if (s.thread.isAlive()) {
                    return false;
                }
                sent.add(s.sent);
                return true;
            });
            senders.add(c);
        } finally {
            lock.unlock();
        }
        sender.set(c);
        return c;
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
            n = sent.sum();
            for (SenderCount s : senders) {
                n += s.sent;
            }
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
