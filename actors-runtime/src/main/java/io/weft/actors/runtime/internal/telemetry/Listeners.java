package io.weft.actors.runtime.internal.telemetry;

import io.weft.actors.EventStream;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A copy-on-write list of listeners: publishing costs one volatile read when nobody listens.
 *
 * @param <E> the event type
 */
public class Listeners<E> implements EventStream<E> {

    private static final Logger LOG = LoggerFactory.getLogger(Listeners.class);

    private final CopyOnWriteArrayList<Consumer<? super E>> listeners = new CopyOnWriteArrayList<>();

    @Override
    public Subscription subscribe(Consumer<? super E> listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /**
     * Whether an event published now would reach anyone: a caller that must build the event
     * first skips building it when nobody listens.
     *
     * @return true if a listener is subscribed
     */
    public boolean wanted() {
        return !listeners.isEmpty();
    }

    public void publish(E event) {
        for (Consumer<? super E> l : listeners) {
            try {
                l.accept(event);
            } catch (RuntimeException e) {
                LOG.warn("event listener {} threw on {}", l, event, e);
            }
        }
    }
}
