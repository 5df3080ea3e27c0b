package io.weft.actors.cluster.internal.sharding;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.cluster.Member;
import io.weft.actors.cluster.internal.sharding.Shard.Entity;
import io.weft.actors.cluster.internal.sharding.Shard.Pending;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** The live entities of one region: start, delivery, stop, confirmation of what they handled; and the bounded keeping of messages. */
final class Entities {

    /* design
     * An entity is a child of its region (EntityShell wraps its behavior), watched by it. Each
     * delivery records the member the message came from in the entity's `sources`, in delivery
     * order; every TICK the region reads how many messages the entity has handled (the shell's
     * counter) and settles that many sources in the Ledger, oldest first. When the entity stops
     * (stop marker, its own stop, a failure), its remaining sources are settled too: those
     * messages were handled or went to dead letters, counted by the runtime.
     *
     * stop() sends the stop marker once; messages for a stopping entity wait in its `pending`
     * (bounded like a shard's buffer) and go to its next incarnation, or back to the shard's
     * buffer if the shard moved meanwhile.
     *
     * keep() is the one place a message is kept: below the bound it is appended, above it goes
     * to dead letters (MAILBOX_OVERFLOW), is counted in bufferDropped and settled.
     *
     * Owned by the region actor.
     */

    private final ActorContext<Object> ctx;
    private final Function<? super String, ? extends Behavior<?>> factory;
    private final Member me;
    private final Ledger ledger;
    private final Region.Counters counters;
    private final int bound;
    private final Map<ActorRef<?>, Entity> byRef = new HashMap<>();
    private final Set<Entity> unsettled = new HashSet<>();

    Entities(ActorContext<Object> ctx, Function<? super String, ? extends Behavior<?>> factory, Member me, Ledger ledger,
            Region.Counters counters, int bound) {
        this.ctx = ctx;
        this.factory = factory;
        this.me = me;
        this.ledger = ledger;
        this.counters = counters;
        this.bound = bound;
    }

    /** Whether no entity is alive and every delivery is settled. */
    boolean none() {
        return byRef.isEmpty() && unsettled.isEmpty();
    }

    /** Keeps a message, or drops it (dead letter, counted, confirmed) when the buffer is full. */
    void keep(ArrayDeque<Pending> buffer, Pending p) {
        if (buffer.size() < bound) {
            buffer.add(p);
        } else {
            drop(p, DeadLetter.Reason.MAILBOX_OVERFLOW);
            counters.dropped().incrementAndGet();
        }
    }

    /** A message that cannot be kept or delivered: dead letter, settled. */
    void drop(Pending p, DeadLetter.Reason reason) {
        ctx.system().deadLetters().post(new DeadLetter(p.item().message(), ctx.self(), p.item().sender(), reason));
        ledger.settle(p.source(), me);
    }

    /** Delivers to the message's entity in an active shard, starting it if needed. */
    void deliver(Shard s, Pending p) {
        Entity e = s.entities.get(p.item().entityId());
        if (e == null) {
            e = start(s, p.item().entityId());
        }
        if (e.stopping) {
            keep(e.pending, p);
            return;
        }
        ActorRef<?> sender = p.item().sender();
        if (sender == null) {
            e.ref.tell(p.item().message());
        } else {
            e.ref.tell(p.item().message(), sender);
        }
        e.sources.add(p.source() == null ? me : p.source());
        e.lastActive = System.nanoTime();
        unsettled.add(e);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Entity start(Shard s, String entityId) {
        EntityShell shell = new EntityShell();
        ActorRef<Object> ref = ctx.spawnChild(Props.defaults(), shell.factory((Function) factory, entityId));
        ctx.watch(ref);
        Entity e = new Entity(s.id, entityId, ref, shell);
        e.lastActive = System.nanoTime();
        s.entities.put(entityId, e);
        byRef.put(ref, e);
        counters.entities().incrementAndGet();
        return e;
    }

    /** Sends the stop marker through the entity's mailbox, once. */
    void stop(Entity e) {
        if (!e.stopping) {
            e.stopping = true;
            e.ref.tell(EntityShell.STOP);
        }
    }

    /**
     * An entity stopped: it is forgotten and what it had not confirmed is settled.
     *
     * @param shards the region's shards
     * @return the entity (its `pending` still to be placed), or null if the ref was no entity
     */
    Entity terminated(ActorRef<?> ref, Shard[] shards) {
        Entity e = byRef.remove(ref);
        if (e == null) {
            return null;
        }
        shards[e.shard].entities.remove(e.id);
        counters.entities().decrementAndGet();
        unsettled.remove(e);
        for (Member src : e.sources) {
            ledger.settle(src, me);
        }
        return e;
    }

    /** Settles, per entity, as many deliveries as it has handled since the last call. */
    void settleHandled() {
        for (Iterator<Entity> it = unsettled.iterator(); it.hasNext();) {
            Entity e = it.next();
            long handled = e.shell.handled.get();
            while (e.settled < handled && !e.sources.isEmpty()) {
                ledger.settle(e.sources.poll(), me);
                e.settled++;
            }
            if (e.sources.isEmpty()) {
                it.remove();
            }
        }
    }

    /** Stops the entities of active shards that have had no message for {@code idleNanos}. */
    void passivateIdle(Shard[] shards, long idleNanos) {
        long now = System.nanoTime();
        for (Shard s : shards) {
            if (s.active) {
                for (Entity e : s.entities.values()) {
                    if (!e.stopping && now - e.lastActive >= idleNanos) {
                        stop(e);
                    }
                }
            }
        }
    }
}
