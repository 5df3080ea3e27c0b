/**
 * Thread-based actors: {@link io.weft.actors.loom.Actors#self(io.weft.actors.ActorSystem)} makes any thread an actor.
 * Spawn thread-based actors with {@link io.weft.actors.ActorSystem#spawnThread}.
 */
package io.weft.actors.loom;
