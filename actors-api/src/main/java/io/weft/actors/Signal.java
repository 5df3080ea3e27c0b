package io.weft.actors;

/**
 * A message the runtime sends to an actor about another actor's life: {@link Terminated} (death
 * watch) and {@link Exit} (a trapped link). Signals arrive on the main channel whatever its message
 * type; a typed actor matches them with {@link Receive.HandlerBuilder#onSignal(Class,
 * java.util.function.Consumer)}.
 */
public sealed interface Signal permits Terminated, Exit {

    /** @return the actor the signal is about */
    ActorRef<?> actor();
}
