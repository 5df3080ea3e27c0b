package io.weft.actors;

/**
 * Sent to an actor that {@linkplain ActorContext#trapExit(boolean) traps exits} when an actor
 * {@linkplain ActorContext#link(ActorRef) linked} to it stops (Erlang's exit signal turned into a
 * message). An actor that does not trap exits receives no message: a linked actor's failure fails
 * it with {@link LinkedActorFailedException}, and a normal stop leaves it alone.
 *
 * @param actor the linked actor that stopped
 * @param cause its failure, or null for a normal stop
 */
public record Exit(ActorRef<?> actor, Throwable cause) implements Signal {
}
