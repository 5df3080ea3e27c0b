package io.weft.actors.runtime.internal.telemetry;

import io.weft.actors.ActorRef;
import io.weft.actors.SystemMetrics;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import io.weft.actors.runtime.internal.schedule.ForkJoinScheduler;
import io.weft.actors.runtime.internal.cell.LocalRef;
import io.weft.actors.runtime.internal.system.WeftSystem;

/**
 * Per-system message counts, and the public {@link SystemMetrics} view of the system.
 *
 * <p>The hot path (a pool worker of this system sending or handling) bumps plain counters owned by
 * that worker thread; every other thread uses striped {@link LongAdder}s. Totals add both. A total
 * read while workers run is approximate (plain fields, read racily); once the system is closed the
 * pool's termination orders every worker's writes before the read, and the totals are exact.
 */
public final class Metrics implements SystemMetrics {

    private final WeftSystem system;

    /**
     * Counters owned by one pool worker; written only by that worker. Padded on both sides (field
     * layout puts a superclass's fields first) so that two workers' counters, allocated one after
     * the other, never share a cache line, as every message bumps them (false sharing grows with
     * the number of workers).
     */
    public static final class WorkerCounters extends CounterFields {
        long p10, p11, p12, p13, p14, p15, p16, p17;
    }

    /** The counters, after the leading padding. */
    static class CounterFields extends CounterPadding {
        long sent;
        long handled;
    }

    /** Leading padding of {@link WorkerCounters}. */
    static class CounterPadding {
        long p00, p01, p02, p03, p04, p05, p06, p07;
    }

    private final LongAdder sent = new LongAdder();
    private final LongAdder handled = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final List<WorkerCounters> workers = new CopyOnWriteArrayList<>();

    public Metrics(WeftSystem system) {
        this.system = system;
    }

    public WorkerCounters newWorkerCounters() {
        WorkerCounters c = new WorkerCounters();
        workers.add(c);
        return c;
    }

    private WorkerCounters local() {
        return Thread.currentThread() instanceof ForkJoinScheduler.Worker w && w.metrics == this ? w.counters : null;
    }

    public void sent() {
        WorkerCounters c = local();
        if (c != null) {
            c.sent++;
        } else {
            sentOutsidePool();
        }
    }

    public void handled() {
        WorkerCounters c = local();
        if (c != null) {
            c.handled++;
        } else {
            handledOutsidePool();
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

    public void dropped() {
        dropped.increment();
    }

    public long sentCount() {
        long n = sent.sum();
        for (WorkerCounters c : workers) {
            n += c.sent;
        }
        return n;
    }

    public long handledCount() {
        long n = handled.sum();
        for (WorkerCounters c : workers) {
            n += c.handled;
        }
        return n;
    }

    public long droppedCount() {
        return dropped.sum();
    }

    @Override
    public long liveActors() {
        return system.actorCount();
    }

    @Override
    public long messagesSent() {
        return sentCount();
    }

    @Override
    public long messagesHandled() {
        return handledCount();
    }

    @Override
    public long deadLetters() {
        return system.deadLetterOffice().count();
    }

    @Override
    public long messagesDropped() {
        return droppedCount();
    }

    @Override
    public int mailboxDepth(ActorRef<?> actor) {
        Objects.requireNonNull(actor, "actor");
        if (actor instanceof LocalRef<?> local && local.cell().weftSystem() == system && !local.isTerminated()) {
            return local.cell().queuedMessages();
        }
        return -1;
    }

    @Override
    public String toString() {
        return "SystemMetrics[" + system.name() + ": actors=" + liveActors() + ", sent=" + messagesSent() + ", handled="
                + messagesHandled() + ", deadLetters=" + deadLetters() + ", dropped=" + messagesDropped() + "]";
    }
}
