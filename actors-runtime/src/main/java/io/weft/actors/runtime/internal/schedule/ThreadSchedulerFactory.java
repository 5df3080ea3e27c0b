package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.spi.Scheduler;
import io.weft.actors.ActorSystem;

/**
 * Supplies the scheduler of thread-based actors (virtual threads); provided by actors-loom through
 * {@link java.util.ServiceLoader}.
 */
public interface ThreadSchedulerFactory {

    /**
     * Creates the virtual-thread scheduler of one system.
     *
     * @param system the system
     * @return a scheduler whose {@link Scheduler#ownsThread()} is true
     */
    Scheduler create(ActorSystem system);
}
