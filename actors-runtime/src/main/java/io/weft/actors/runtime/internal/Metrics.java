package io.weft.actors.runtime.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-system message counts.
 *
 * <p>The hot path (a pool worker of this system sending or handling) bumps plain counters owned by
 * that worker thread; every other thread uses striped {@link LongAdder}s. Totals add both. A total
 * read while workers run is approximate (plain fields, read racily); once the system is closed the
 * pool's termination orders every worker's writes before the read, and the totals are exact.
 */
final class Metrics {

    /** Counters owned by one pool worker; written only by that worker. */
    static final class WorkerCounters {
        long sent;
        long handled;
    }

    private final LongAdder sent = new LongAdder();
    private final LongAdder handled = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final List<WorkerCounters> workers = new CopyOnWriteArrayList<>();

    WorkerCounters newWorkerCounters() {
        WorkerCounters c = new WorkerCounters();
        workers.add(c);
        return c;
    }

    private WorkerCounters local() {
        return Thread.currentThread() instanceof ForkJoinScheduler.Worker w && w.metrics == this ? w.counters : null;
    }

    void sent() {
        WorkerCounters c = local();
        if (c != null) {
            c.sent++;
        } else {
            sent.increment();
        }
    }

    void handled() {
        WorkerCounters c = local();
        if (c != null) {
            c.handled++;
        } else {
            handled.increment();
        }
    }

    void dropped() {
        dropped.increment();
    }

    long sentCount() {
        long n = sent.sum();
        for (WorkerCounters c : workers) {
            n += c.sent;
        }
        return n;
    }

    long handledCount() {
        long n = handled.sum();
        for (WorkerCounters c : workers) {
            n += c.handled;
        }
        return n;
    }

    long droppedCount() {
        return dropped.sum();
    }
}
