package io.weft.actors.cluster;

import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import java.util.function.Function;

/**
 * Sharded entities (like Pekko's Cluster Sharding): actors addressed by a type and an id, one
 * instance cluster-wide, started on their first message, stopped (passivated) when idle, and
 * moved to another member when the membership changes.
 *
 * <p>An id belongs to a shard ({@code hash(id) mod shards}); each shard lives on one member,
 * chosen by rendezvous hashing over the members that are UP and not leaving, so every member
 * computes the same owner from the same view without a coordinator. Every member of the cluster
 * must call {@link #init} for a type before entities of that type are used: every member hosts
 * shards.
 *
 * <pre>{@code
 * ClusterSharding sharding = cluster.sharding();
 * sharding.init("counter", id -> Counter.behavior(id), ShardingSettings.defaults());
 * ActorRef<Cmd> c = sharding.entityRef("counter", "user-42");
 * c.tell(new Increment());
 * Integer n = system.<Cmd, Integer>ask(c, new Get(), Duration.ofSeconds(5)).join();
 * }</pre>
 *
 * <p>Guarantees: messages from one sender to one entity keep their order while the entity stays
 * on its member; messages sent while its shard moves are kept (up to
 * {@link ShardingSettings#bufferSize()} per shard) and delivered after the move; a message beyond
 * that bound goes to dead letters ({@link io.weft.actors.DeadLetter.Reason#MAILBOX_OVERFLOW}) and
 * is counted by {@link #bufferDropped}; a message in flight to a member that goes down is counted
 * by {@link #lostWithNode} on the member that sent it. Entities see the original sender, so
 * {@code reply} answers an {@code ask} on an entity ref.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface ClusterSharding {

    /**
     * Registers an entity type on this member and starts its region (the actor that routes,
     * hosts and moves the type's shards here). Call it with the same type and shard count on
     * every member.
     *
     * @param type the type's name: not null, not blank, no control characters
     * @param factory makes an entity's behavior from its id, once per start (first message, after
     *     a passivation, after a move)
     * @param settings the type's settings
     * @param <M> the entities' message type
     * @throws IllegalArgumentException if an argument is null or the type is invalid
     * @throws IllegalStateException if the type is already registered on this member, or this
     *     member is no longer in the cluster
     */
    <M> void init(String type, Function<? super String, ? extends Behavior<M>> factory, ShardingSettings settings);

    /**
     * A ref to the entity {@code entityId} of {@code type}, wherever it lives now; usable with
     * {@code tell} and {@code system.ask}. Telling it hands the message to this member's region
     * of the type, which routes it.
     *
     * @param type a type registered on this member with {@link #init}
     * @param entityId the entity's id: not null, not blank
     * @param <M> the entities' message type
     * @return the ref (cheap: make one per use or keep it)
     * @throws IllegalArgumentException if the type or id is null or blank
     * @throws IllegalStateException if the type was not registered on this member
     */
    <M> ActorRef<M> entityRef(String type, String entityId);

    /**
     * Messages of a type this member dropped because a shard's buffer was full (each also went to
     * dead letters).
     *
     * @param type the type
     * @return the count, 0 for a type not registered here
     */
    long bufferDropped(String type);

    /**
     * Messages of a type this member sent to another member that went DOWN or was removed before
     * confirming them: they may or may not have been handled. A message handled but not yet
     * confirmed (confirmations go out every 100 ms) when its member died counts too, so for asks,
     * answered plus lost is at least sent.
     *
     * @param type the type
     * @return the count, 0 for a type not registered here
     */
    long lostWithNode(String type);

    /**
     * Entities of a type alive on this member now.
     *
     * @param type the type
     * @return the count, 0 for a type not registered here
     */
    int localEntityCount(String type);
}
