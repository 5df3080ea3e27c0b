package io.weft.actors.bench.kit;

/** A handle on a benchmark actor, whatever implements it. */
@FunctionalInterface
public interface Ref {

    /**
     * Sends a message without waiting.
     *
     * @param message the message, never null
     */
    void tell(Object message);
}
