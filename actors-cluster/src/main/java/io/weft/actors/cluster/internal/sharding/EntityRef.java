package io.weft.actors.cluster.internal.sharding;

import io.weft.actors.ActorRef;
import java.util.Objects;

/**
 * The ref of a sharded entity: telling it hands the message, with its sender, to this member's
 * region of the type, which routes it to wherever the entity lives. It is no actor: its id is
 * 0, and it is terminated only when the region has stopped (the member left or closed).
 *
 * @param <M> the entity's message type
 */
final class EntityRef<M> implements ActorRef<M> {

    private final ActorRef<Object> region;
    private final String type;
    private final String entityId;

    EntityRef(ActorRef<Object> region, String type, String entityId) {
        this.region = region;
        this.type = type;
        this.entityId = entityId;
    }

    @Override
    public void tell(M message) {
        region.tell(new Region.Local(entityId, Objects.requireNonNull(message, "message")));
    }

    @Override
    public void tell(M message, ActorRef<?> replyTo) {
        Region.Local l = new Region.Local(entityId, Objects.requireNonNull(message, "message"));
        if (replyTo == null) {
            region.tell(l);
        } else {
            region.tell(l, replyTo);
        }
    }

    @Override
    public long id() {
        return 0;
    }

    @Override
    public String name() {
        return type + "/" + entityId;
    }

    @Override
    public String address() {
        return "weft-shard://" + type + "/" + entityId;
    }

    @Override
    public boolean isTerminated() {
        return region.isTerminated();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EntityRef<?> r && r.region.equals(region) && r.entityId.equals(entityId);
    }

    @Override
    public int hashCode() {
        return region.hashCode() * 31 + entityId.hashCode();
    }

    @Override
    public String toString() {
        return "EntityRef[" + type + "/" + entityId + "]";
    }
}
