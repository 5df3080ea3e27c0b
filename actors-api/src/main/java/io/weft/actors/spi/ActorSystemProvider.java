package io.weft.actors.spi;

import io.weft.actors.ActorSystem;

/**
 * The service that creates systems, found by {@link java.util.ServiceLoader}; the actors-runtime
 * module provides one.
 */
public interface ActorSystemProvider {

    /**
     * Creates and starts a system.
     *
     * @param settings the validated settings
     * @return the system
     */
    ActorSystem create(ActorSystem.Settings settings);
}
