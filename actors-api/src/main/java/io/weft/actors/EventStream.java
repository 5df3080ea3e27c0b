package io.weft.actors;

import java.util.function.Consumer;

/**
 * A stream of system events that anyone may subscribe to.
 *
 * <p>Listeners run on the thread that published the event, in no particular order between
 * listeners; a {@link Consumer} listener must be quick and must not throw (what it throws is logged
 * and ignored). A ref listener gets each event by {@code tell}.
 *
 * @param <E> the event type
 */
public interface EventStream<E> {

    /**
     * Subscribes a listener.
     *
     * @param listener called with each event
     * @return closing it unsubscribes
     */
    Subscription subscribe(Consumer<? super E> listener);

    /**
     * Subscribes an actor.
     *
     * @param listener gets each event as a message
     * @return closing it unsubscribes
     */
    default Subscription subscribe(Channel<? super E> listener) {
        return subscribe(listener::tell);
    }

    /** A subscription; {@link #close()} ends it and is idempotent. */
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }
}
