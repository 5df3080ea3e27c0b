package io.weft.actors.stream.internal;

import io.weft.actors.ActorRef;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * An actor ref whose {@code tell} feeds a stage or a network's inlet (a blocking put), so any actor
 * can send into a pipeline. Ids are negative, apart from the system's actor ids.
 *
 * @param <T> the item type
 */
final class StreamRef<T> implements ActorRef<T> {

    private static final AtomicLong IDS = new AtomicLong();

    private final long id = -IDS.incrementAndGet();
    private final String name;
    private final Predicate<T> put;
    private volatile boolean terminated;

    StreamRef(String name, Predicate<T> put) {
        this.name = name;
        this.put = put;
    }

    void terminated() {
        terminated = true;
    }

    @Override
    public void tell(T message) {
        put.test(Objects.requireNonNull(message, "message"));
    }

    @Override
    public void tell(T message, ActorRef<?> replyTo) {
        tell(message);
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
        return "stream://" + name;
    }

    @Override
    public boolean isTerminated() {
        return terminated;
    }

    @Override
    public String toString() {
        return "StreamRef[" + name + "]";
    }
}
