package io.weft.actors.runtime.internal.pubsub;

import io.weft.actors.ActorRef;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The ref that stands for a topic or the event stream where an {@link ActorRef} is needed: as the
 * recipient of a {@code NO_SUBSCRIBERS} dead letter. Telling it publishes. It is no actor: its id
 * is 0, it never terminates.
 */
final class PseudoRef implements ActorRef<Object> {

    private final String name;
    private final Consumer<Object> onTell;

    PseudoRef(String name, Consumer<Object> onTell) {
        this.name = name;
        this.onTell = onTell;
    }

    @Override
    public void tell(Object message) {
        onTell.accept(Objects.requireNonNull(message, "message"));
    }

    @Override
    public void tell(Object message, ActorRef<?> replyTo) {
        tell(message);
    }

    @Override
    public long id() {
        return 0;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String address() {
        return "weft-pubsub://" + name;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public String toString() {
        return name;
    }
}
