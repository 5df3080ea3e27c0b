package io.weft.actors.runtime.internal;

import io.weft.actors.ActorRef;

/**
 * The ref of a local actor. It holds the cell privately: no public method leads from a ref to the
 * actor's object or state. Each cell has exactly one ref, so identity equality is actor equality.
 *
 * @param <M> the main channel's message type
 */
final class LocalRef<M> implements ActorRef<M> {

    private final Cell<M> cell;
    private final String name;

    LocalRef(Cell<M> cell, String name) {
        this.cell = cell;
        this.name = name;
    }

    Cell<M> cell() {
        return cell;
    }

    @Override
    public void tell(M message) {
        cell.sendMain(cell.weftSystem().checkMessage(message), null);
    }

    @Override
    public void tell(M message, ActorRef<?> replyTo) {
        cell.sendMain(cell.weftSystem().checkMessage(message), replyTo);
    }

    @Override
    public long id() {
        return cell.id();
    }

    @Override
    public String name() {
        return name != null ? name : "$" + cell.id();
    }

    boolean hasGivenName() {
        return name != null;
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
