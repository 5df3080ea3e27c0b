package io.weft.actors.runtime.internal.routing;

import io.weft.actors.ActorRef;
import io.weft.actors.runtime.internal.cell.Cell;
import io.weft.actors.runtime.internal.cell.LocalRef;
import io.weft.actors.runtime.internal.telemetry.DeadLetterOffice;

/**
 * One routee as its router sees it: the ref, its cell when it is a local actor (for mailbox depth
 * and whether it is running), and the balancing state. Owned by the router's actor.
 */
final class Routee {

    final ActorRef<Object> ref;
    final Cell<?> cell;
    /** Balancing: a message was given to it and it has not said it finished. Router-owned. */
    boolean busy;

    @SuppressWarnings("unchecked")
    Routee(ActorRef<?> ref) {
        this.ref = (ActorRef<Object>) ref;
        this.cell = ref instanceof LocalRef<?> local ? local.cell() : null;
    }

    /** Queued messages, or a large number for a routee whose depth cannot be read. */
    int depth() {
        return cell == null ? Integer.MAX_VALUE / 2 : cell.queuedMessages();
    }

    /** Nothing queued and not running: it would take a message at once. */
    boolean idle() {
        return cell != null && !cell.isActive() && cell.queuedMessages() == 0;
    }

    /**
     * What a balancing routee tells its router after each message the router gave it. A routee
     * finishing its message as the pool stops tells a router that has stopped: the Ready is then
     * dropped on purpose (an Internal message, counted apart), not a user-visible dead letter.
     */
    record Ready(ActorRef<?> routee) implements DeadLetterOffice.Internal {
    }

    /**
     * A message a balancing router gave a routee; the routee's handler sees {@link #message()}, and
     * so does a dead letter of it.
     */
    record Routed(Object message) implements DeadLetterOffice.Carrier, java.io.Serializable {
        @Override
        public Object carried() {
            return message;
        }
    }
}
