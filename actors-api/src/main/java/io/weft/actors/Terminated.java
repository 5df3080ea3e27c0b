package io.weft.actors;

/**
 * Sent to an actor that {@linkplain ActorContext#watch(ActorRef) watches} another when the watched
 * actor stops, normally or after a failure. Watching an actor that is already stopped delivers this
 * message at once. Match it with a handler on {@code Object} (or a common supertype), for example
 * {@code Receive.<Object>handler().match(Terminated.class, t -> ...)}.
 *
 * @param actor the actor that stopped
 * @param cause the failure that stopped it, or null for a normal stop
 */
public record Terminated(ActorRef<?> actor, Throwable cause) implements Signal {
}
