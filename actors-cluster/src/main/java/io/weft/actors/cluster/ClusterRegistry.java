package io.weft.actors.cluster;

import io.weft.actors.ActorRef;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The cluster-wide registry: a name maps to a <em>set</em> of actors, registered on any members
 * (like Pekko's Receptionist and its {@code ServiceKey}). Each member owns the entries of its own
 * actors and replicates them to the others over the cluster's JGroups channel; there is no
 * coordinator.
 *
 * <ul>
 *   <li>{@link #register} adds a local actor under a name; several actors, on one or several
 *       members, may share a name: {@link #lookup} returns all of them, {@link #lookupOne} one.</li>
 *   <li>An actor that stops is unregistered by its own member, everywhere.</li>
 *   <li>The entries of a member that leaves the view (left, down, removed) are dropped on every
 *       other member at that view change; refs looked up from them were remote refs to a
 *       quarantined incarnation, so their watchers get {@link io.weft.actors.Terminated}.</li>
 *   <li>Replication is eventually consistent: a lookup on another member sees a registration once
 *       that member has received it (subscribe to see when).</li>
 * </ul>
 *
 * <p>Names are non-blank and carry no control characters. Thread-safety: every method may be
 * called from any thread; lookups read a snapshot and never block.
 */
public interface ClusterRegistry {

    /**
     * Registers a local actor under a name, here and (asynchronously) on every other member.
     * Registering the same actor under the same name again has no effect.
     *
     * @param name the name: not null, not blank, no control characters
     * @param ref an actor of this member's system, not stopped
     * @throws IllegalArgumentException if the name is invalid, or the ref is a remote ref (register
     *     it on the member that owns it), or the actor has stopped
     * @throws IllegalStateException if this member is no longer in the cluster
     */
    void register(String name, ActorRef<?> ref);

    /**
     * Removes a local actor's entry under a name, here and on every other member.
     *
     * @param name the name
     * @param ref the actor registered under it on this member
     * @return true if it was registered here under that name
     * @throws IllegalArgumentException if the name is invalid or the ref is null
     */
    boolean unregister(String name, ActorRef<?> ref);

    /**
     * All actors registered under a name that this member knows of, local refs for this member's
     * actors and remote refs for the others', ordered by owner ({@link Member#compareTo}), then by
     * registration on that owner.
     *
     * @param name the name
     * @return a snapshot, empty if none
     * @throws IllegalArgumentException if the name is invalid
     */
    List<ActorRef<Object>> lookup(String name);

    /**
     * One actor registered under a name: a local one if there is one, else the first of
     * {@link #lookup}.
     *
     * @param name the name
     * @return the actor, or empty if none is registered
     * @throws IllegalArgumentException if the name is invalid
     */
    Optional<ActorRef<Object>> lookupOne(String name);

    /**
     * Subscribes to registry changes as this member sees them: first an {@link RegistryEvent.Kind#ADDED}
     * for every current entry (reason "current state"), then every change, in order, on the
     * cluster's event thread; the subscriber must not block.
     *
     * @param subscriber the subscriber
     * @return closing it unsubscribes
     */
    AutoCloseable subscribe(Consumer<? super RegistryEvent> subscriber);
}
