package io.weft.actors.runtime.internal.system;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;
import java.util.Objects;

/** The ref that an address of a stopped actor resolves to: everything sent is a dead letter. */
final class StoppedRef implements ActorRef<Object> {
    private final WeftSystem system;
    private final long id;
    private final String name;

    StoppedRef(WeftSystem system, long id, String name) {
        this.system = system;
        this.id = id;
        this.name = name;
    }

    @Override
    public void tell(Object message) {
        tell(message, null);
    }

    @Override
    public void tell(Object message, ActorRef<?> replyTo) {
        Objects.requireNonNull(message, "message");
        system.deadLetterOffice().publish(message, this, replyTo,
                system.isClosed() ? DeadLetter.Reason.SYSTEM_CLOSED : DeadLetter.Reason.RECIPIENT_STOPPED);
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
        return "weft://" + system.name() + "/" + name + "#" + id;
    }

    @Override
    public boolean isTerminated() {
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ActorRef<?> r && r.id() == id && r.address().equals(address());
    }

    @Override
    public int hashCode() {
        return Long.hashCode(id);
    }

    @Override
    public String toString() {
        return "Actor[" + name + "#" + id + ", stopped]";
    }
}
