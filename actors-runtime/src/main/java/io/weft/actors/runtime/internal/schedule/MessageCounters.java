package io.weft.actors.runtime.internal.schedule;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * The message counts of one system: sent, handled and dropped messages.
 *
 * <p>The hot path (a pool worker of this system sending or handling) bumps plain counters owned by
 * that worker thread; every other thread uses striped {@link LongAdder}s. Totals add both. A total
 * read while workers run is approximate (plain fields, read racily); once the system is closed the
 * pool's termination orders every worker's writes before the read, and the totals are exact.
 */
public final class MessageCounters {

    /* design
     * The counters live in the scheduling layer because their hot path is a field of the pool
     * worker: a worker of this system's pool (a class test, then an identity test of the owner)
     * bumps its own padded fields with no atomic instruction; any other thread takes a LongAdder
     * stripe. The system's SystemMetrics view (system.Metrics) adds them up.
     *
     * The adder for sends from threads outside the pool is a locked CAS per tell on the ingress
     * path (1.5-3 ns, 8-18 % of the producer thread's CPU per tell; docs/benchmarks.md, "The floor
     * of ingress, and the count of sends"). Two exact schemes without it were measured and not
     * kept: a count per platform thread found through a ThreadLocal (the lookup cost more than the
     * CAS: producer CPU 1.23-1.26x) and one owner thread at a time counting in a slot with a plain
     * store, the others on the adder (producer CPU 0.85x into 100 actors, but no wall-time gain
     * at p < 0.05, and 4 producers into one actor slower relative to Pekko, p 0.008).
     */

    private final LongAdder sent = new LongAdder();
    private final LongAdder handled = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final List<WorkerCounters> workers = new CopyOnWriteArrayList<>();

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
        sent.increment();
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
        long n = sent.sum();
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
