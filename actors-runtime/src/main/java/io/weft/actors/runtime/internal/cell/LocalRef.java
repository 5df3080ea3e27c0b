package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorRef;

/**
 * The ref of a local actor. It holds the cell privately: no public method leads from a ref to the
 * actor's object or state. Each cell has exactly one ref, so identity equality is actor equality.
 *
 * @param <M> the main channel's message type
 */
public class LocalRef<M> implements ActorRef<M> {

    /* design
     * An unnamed actor's ref is 16 bytes (header + cell); only named actors pay for the name
     * field, in the Named subclass.
     */

    private final Cell<M> cell;

    LocalRef(Cell<M> cell) {
        this.cell = cell;
    }

    /** The ref of an actor spawned with a name. */
    static final class Named<M> extends LocalRef<M> {
        private final String name;

        Named(Cell<M> cell, String name) {
            super(cell);
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean hasGivenName() {
            return true;
        }
    }

    public Cell<M> cell() {
        return cell;
    }

    @Override
    public final void tell(M message) {
        cell.sendMain(cell.weftSystem().checkMessage(message), null);
    }

    @Override
    public final void tell(M message, ActorRef<?> replyTo) {
        cell.sendMain(cell.weftSystem().checkMessage(message), replyTo);
    }

    @Override
    public final long id() {
        return cell.id();
    }

    @Override
    public String name() {
        return "$" + cell.id();
    }

    public boolean hasGivenName() {
        return false;
    }

    @Override
    public String address() {
        return "weft://" + cell.weftSystem().name() + "/" + name() + "#" + cell.id();
    }

    @Override
    public boolean isTerminated() {
        return cell.isTerminated();
    }

    @Override
    public String toString() {
        return "Actor[" + name() + "#" + cell.id() + "]";
    }
}
