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
        // Named after the actor (weft-<system>-actor-<name>): one String per thread, so that a
        // thread dump or a profiler names the actor whose thread it is.
        return new ThreadPerActorScheduler("virtual-thread", Thread.ofVirtual(), "weft-" + system.name() + "-actor-");
    }
}
