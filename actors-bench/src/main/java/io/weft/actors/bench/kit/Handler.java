package io.weft.actors.bench.kit;

/**
 * The behaviour of a benchmark actor: called once per message, one message at a time. The same
 * handler code runs on every implementation, so the workloads are written once and what differs
 * is only how messages are queued, scheduled and delivered.
 */
@FunctionalInterface
public interface Handler {

    /**
     * Handles one message.
     *
     * @param message the message
     * @param ctx the actor's context
     */
    void onMessage(Object message, Ctx ctx);
}
