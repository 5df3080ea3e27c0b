package io.weft.actors;

/**
 * Live counters of one {@link ActorSystem}, read on request ({@link ActorSystem#metrics()}).
 * Counts are cumulative since the system started and may lag concurrent activity slightly; they
 * are meant for dashboards and health checks, not for synchronizing.
 */
public interface SystemMetrics {

    /** @return actors alive now (spawned and not yet stopped) */
    long liveActors();

    /** @return messages accepted into mailboxes */
    long messagesSent();

    /**
     * Messages handed to a handler that accepted them. Counts are published per batch: an
     * event-based actor adds the messages of a turn's batch at the end of that batch, and a
     * thread-based actor adds its receives in groups of up to 64 and before it waits in
     * {@code receive}; so the count may lag the handlers by a batch per running actor, and it is
     * complete for an actor that is idle.
     *
     * @return messages handed to a handler that accepted them
     */
    long messagesHandled();

    /** @return messages that went to dead letters, for any reason */
    long deadLetters();

    /**
     * Messages a full bounded mailbox did not queue, under every {@link Mailbox.Overflow} policy:
     * dropped ones ({@code DROP_NEW}, the evicted of {@code DROP_OLD}, a {@code BLOCK} sender that
     * gave up because the actor stopped), which are also dead letters, and refused ones
     * ({@code FAIL}'s {@link MailboxFullException}, {@code BLOCK} refusing a react handler), which
     * the sender got back with an exception and which are not dead letters.
     *
     * @return messages dropped or refused by full bounded mailboxes
     */
    long messagesDropped();

    /**
     * Messages kept now, over all actors, because no handler matched them yet (selective receive,
     * {@link Unhandled}). They are part of each actor's {@link #mailboxDepth(ActorRef)}.
     *
     * @return the kept messages now
     */
    long keptMessages();

    /**
     * Messages that went to dead letters because no handler matched them
     * ({@link DeadLetter.Reason#UNHANDLED}: the oldest kept beyond an actor's bound, or any unmatched
     * message of an actor in {@link Unhandled.Mode#DEAD_LETTER} mode).
     *
     * @return the count since the system started
     */
    long unhandledMessages();

    /**
     * Spawns of pool routees that failed after the pool's start: one for each call of a pool's
     * routee factory that threw while the pool replaced a stopped routee, topped itself back up or
     * grew (each retry of the same missing routee counts again), and one for each stopped routee a
     * pool did not replace because its restart budget was used up. They are logged at WARN, naming
     * the router and the size it runs at ({@link Routers}, "A pool keeps its size"); a round of
     * retries logs at most two warnings, and the stops past the budget at most one per budget window.
     *
     * <p>The default returns 0, for implementations that count none.
     *
     * @return the count since the system started
     */
    default long routeeSpawnFailures() {
        return 0;
    }

    /**
     * The number of messages waiting for one actor now: queued on all its channels, plus the ones
     * it keeps because no handler matched them yet ({@link #keptMessages()}). Computed on each
     * call (a walk of the actor's queues' indices, not of the messages).
     *
     * @param actor an actor of this system
     * @return its queued messages, approximate while senders are active; -1 if {@code actor} is not
     *     a live actor of this system
     */
    int mailboxDepth(ActorRef<?> actor);
}
