package io.weft.actors.remote.internal.remoting;

import io.weft.actors.ActorRef;
import io.weft.actors.spi.WatchableRef;

/** A ref to an actor of a remote system, bound to one incarnation of that system. */
final class RemoteRefImpl implements ActorRef<Object>, WatchableRef {

    private final Association association;
    private final String address;
    private final String name;
    private final long id;
    private volatile boolean terminated;

    RemoteRefImpl(Association association, String address, String name, long id) {
        this.association = association;
        this.address = address;
        this.name = name;
        this.id = id;
    }

    @Override
    public void tell(Object message) {
        tell(message, null);
    }

    @Override
    public void tell(Object message, ActorRef<?> replyTo) {
        java.util.Objects.requireNonNull(message, "message");
        association.send(this, message, replyTo);
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public boolean isTerminated() {
        return terminated || association.isQuarantined();
    }

    /** @return the peer's host:port */
    String peer() {
        return association.hostPort;
    }

    void markTerminated() {
        terminated = true;
    }

    @Override
    public void addWatcher(ActorRef<?> watcher) {
        association.watch(this, watcher);
    }

    @Override
    public void removeWatcher(ActorRef<?> watcher) {
        association.unwatch(this, watcher);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RemoteRefImpl r && r.address.equals(address) && r.association == association;
    }

    @Override
    public int hashCode() {
        return address.hashCode();
    }

    @Override
    public String toString() {
        return "RemoteRef[" + address + "]";
    }
}
