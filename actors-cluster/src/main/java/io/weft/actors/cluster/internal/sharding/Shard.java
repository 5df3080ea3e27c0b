package io.weft.actors.cluster.internal.sharding;

import io.weft.actors.ActorRef;
import io.weft.actors.cluster.Member;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** One shard's state in one region, and the entities of it that live there. */
final class Shard {

    /* design
     * States (derived from the fields, owned by the region actor):
     *   not owned, nothing here       messages are forwarded to the owner;
     *   not owned, entities/buffer    the shard is being handed off (entities got STOP) or this
     *                                 region keeps messages the owner has not claimed yet: new
     *                                 messages are kept behind them, in order, and go to the
     *                                 next claimant in one hand-off;
     *   owned, claiming               `awaiting` holds the members whose hand-off is missing;
     *                                 messages are kept;
     *   owned, active                 messages go to entities, started on first message.
     * A claim activates only when `awaiting` is empty AND no entity of the shard is still
     * stopping here: at most one member runs a shard's entities at a time (see Region).
     */

    /** A message kept for later, with the member it came from (to confirm it when done). */
    record Pending(Wire.Item item, Member source) {
    }

    /** One entity incarnation. */
    static final class Entity {
        final int shard;
        final String id;
        final ActorRef<Object> ref;
        final EntityShell shell;
        /** The source member of each delivered message not yet confirmed, in delivery order. */
        final ArrayDeque<Member> sources = new ArrayDeque<>();
        long settled;
        long lastActive;
        boolean stopping;
        /** Messages that arrived while it was stopping: they go to its next incarnation. */
        final ArrayDeque<Pending> pending = new ArrayDeque<>();

        Entity(int shard, String id, ActorRef<Object> ref, EntityShell shell) {
            this.shard = shard;
            this.id = id;
            this.ref = ref;
            this.shell = shell;
        }
    }

    final int id;
    Member owner;
    boolean owned;
    boolean active;
    long claimedAt;
    long claimingSince;
    final Set<Member> awaiting = new LinkedHashSet<>();
    final Set<Member> claimants = new LinkedHashSet<>();
    final ArrayDeque<Pending> handedIn = new ArrayDeque<>();
    final ArrayDeque<Pending> buffer = new ArrayDeque<>();
    final Map<String, Entity> entities = new HashMap<>();

    Shard(int id) {
        this.id = id;
    }

    /** Whether nothing of the shard is here: no entity, nothing kept. */
    boolean empty() {
        return entities.isEmpty() && buffer.isEmpty() && handedIn.isEmpty();
    }
}
