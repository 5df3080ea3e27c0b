/**
 * Thread-based Weft actors: a virtual thread per actor, blocking {@code receive}, and any thread
 * as an actor through {@link io.weft.actors.loom.Actors#self(io.weft.actors.ActorSystem)}.
 */
module io.weft.actors.loom {
    requires transitive io.weft.actors.api;
    requires io.weft.actors.runtime;
    requires org.slf4j;

    exports io.weft.actors.loom;

    provides io.weft.actors.runtime.internal.schedule.ThreadSchedulerFactory with io.weft.actors.loom.internal.VirtualThreadSchedulerFactory;
}
