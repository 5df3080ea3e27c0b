package io.weft.actors.runtime.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.SystemMetrics;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-system message counts, and the public {@link SystemMetrics} view of the system; striped
 * counters so that hot senders do not contend.
 */
final class Metrics implements SystemMetrics {
    private final WeftSystem system;
    private final LongAdder sent = new LongAdder();
    private final LongAdder handled = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    Metrics(WeftSystem system) {
        this.system = system;
    }

    void sent() {
        sent.increment();
    }

    void handled() {
        handled.increment();
    }

    void dropped() {
        dropped.increment();
    }

    long sentCount() {
        return sent.sum();
    }

    long handledCount() {
        return handled.sum();
    }

    long droppedCount() {
        return dropped.sum();
    }

    @Override
    public long liveActors() {
        return system.actorCount();
    }

    @Override
    public long messagesSent() {
        return sent.sum();
    }

    @Override
    public long messagesHandled() {
        return handled.sum();
    }

    @Override
    public long deadLetters() {
        return system.deadLetterOffice().count();
    }

    @Override
    public long messagesDropped() {
        return dropped.sum();
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
