package io.weft.actors.loom.internal;

import io.weft.actors.runtime.internal.schedule.ThreadPerActorScheduler;
import io.weft.actors.runtime.internal.schedule.ThreadSchedulerFactory;
import io.weft.actors.ActorSystem;
import io.weft.actors.spi.Scheduler;

/** Gives each thread-based actor a virtual thread. */
public final class VirtualThreadSchedulerFactory implements ThreadSchedulerFactory {

    /** Used by {@link java.util.ServiceLoader}. */
    public VirtualThreadSchedulerFactory() {
    }

    @Override
    public Scheduler create(ActorSystem system) {
        // Unnamed: a name is two objects per parked actor; thread dumps show the actor's frames.
        return new ThreadPerActorScheduler("virtual-thread", Thread.ofVirtual());
    }
}
