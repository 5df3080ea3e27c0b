package io.weft.actors.runtime.internal.system;

import io.weft.actors.ActorRef;
import io.weft.actors.SystemMetrics;
import java.util.Objects;
import io.weft.actors.runtime.internal.schedule.MessageCounters;
import io.weft.actors.runtime.internal.cell.LocalRef;

/**
 * Per-system message counts, and the public {@link SystemMetrics} view of the system.
 *
 * <p>The counts come from {@link MessageCounters}; a total read while workers run is approximate,
 * and exact once the system is closed.
 */
public final class Metrics implements SystemMetrics {

    private final WeftSystem system;

    private final MessageCounters counters = new MessageCounters();

    /** Messages kept by all actors now (selective receive); moved off the per-message path. */
    private final java.util.concurrent.atomic.LongAdder kept = new java.util.concurrent.atomic.LongAdder();

    public Metrics(WeftSystem system) {
        this.system = system;
    }

    /** @return the hot counters that cells and pool workers bump */
    public MessageCounters counters() {
        return counters;
    }

    @Override
    public long liveActors() {
        return system.actorCount();
    }

    @Override
    public long messagesSent() {
        return counters.sentCount();
    }

    @Override
    public long messagesHandled() {
        return counters.handledCount();
    }

    @Override
    public long deadLetters() {
        return system.deadLetterOffice().count();
    }

    @Override
    public long messagesDropped() {
        return counters.droppedCount();
    }

    /** @param delta kept messages added (positive) or removed (negative) by an actor */
    public void keptChanged(int delta) {
        kept.add(delta);
    }

    @Override
    public long keptMessages() {
        return kept.sum();
    }

    @Override
    public long unhandledMessages() {
        return system.deadLetterOffice().count(io.weft.actors.DeadLetter.Reason.UNHANDLED);
    }

    @Override
    public long routeeSpawnFailures() {
        return system.routeeSpawnFailures();
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
                + messagesHandled() + ", deadLetters=" + deadLetters() + ", dropped=" + messagesDropped() + ", kept=" + keptMessages()
                + (routeeSpawnFailures() == 0 ? "" : ", routeeSpawnFailures=" + routeeSpawnFailures()) + "]";
    }
}
