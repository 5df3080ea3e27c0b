package io.weft.actors.runtime.internal.pubsub;

import io.weft.actors.ActorRef;
import io.weft.actors.EventBus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The system's user event stream.
 */
final class LocalEventBus implements EventBus {
    /* design
     * The subscriptions are one immutable State (event class to its subscribers)
     * swapped by CAS on each subscribe or unsubscribe. Each state carries its own cache from a
     * published event's class to the distinct subscribers of all its supertypes, filled on the first
     * publish of that class, so a publish is one volatile read, one hash lookup and a `tell` per
     * subscriber. A change makes a new state with an empty cache, so a cache entry can never be older
     * than the subscriptions it was computed from.
     */

    private record State(Map<Class<?>, ActorRef<?>[]> byType, ConcurrentHashMap<Class<?>, ActorRef<?>[]> cache) {
        State(Map<Class<?>, ActorRef<?>[]> byType) {
            this(byType, new ConcurrentHashMap<>());
        }

        ActorRef<?>[] resolve(Class<?> type) {
            ActorRef<?>[] r = cache.get(type);
            if (r == null) {
                List<ActorRef<?>> out = new ArrayList<>();
                for (Map.Entry<Class<?>, ActorRef<?>[]> e : byType.entrySet()) {
                    if (e.getKey().isAssignableFrom(type)) {
                        for (ActorRef<?> ref : e.getValue()) {
                            if (!out.contains(ref)) {
                                out.add(ref);
                            }
                        }
                    }
                }
                r = out.toArray(new ActorRef<?>[0]);
                cache.put(type, r);
            }
            return r;
        }
    }

    private final PubSub pubsub;
    private final AtomicReference<State> state = new AtomicReference<>(new State(Map.of()));
    private final PseudoRef self;

    LocalEventBus(PubSub pubsub) {
        this.pubsub = pubsub;
        this.self = new PseudoRef("eventStream", this::publish);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void publish(Object event) {
        Objects.requireNonNull(event, "eventStream: cannot publish null; publish an event object");
        ActorRef<?>[] subs = state.get().resolve(event.getClass());
        if (subs.length == 0) {
            pubsub.noSubscribers(event, self);
            return;
        }
        for (ActorRef<?> s : subs) {
            ((ActorRef<Object>) s).tell(event);
        }
    }

    @Override
    public <E> boolean subscribe(Class<E> type, ActorRef<? super E> subscriber) {
        Objects.requireNonNull(type, "eventStream.subscribe: type is null; pass the event class, e.g. OrderPlaced.class");
        Objects.requireNonNull(subscriber, "eventStream.subscribe: subscriber is null; pass the actor's ref");
        pubsub.watchStops();
        boolean added = change(type, subscriber, true);
        if (subscriber.isTerminated()) {
            unsubscribe(subscriber);
            return false;
        }
        return added;
    }

    @Override
    public boolean unsubscribe(Class<?> type, ActorRef<?> subscriber) {
        return type != null && subscriber != null && change(type, subscriber, false);
    }

    @Override
    public boolean unsubscribe(ActorRef<?> subscriber) {
        if (subscriber == null) {
            return false;
        }
        boolean any = false;
        for (Class<?> type : state.get().byType().keySet()) {
            any |= change(type, subscriber, false);
        }
        return any;
    }

    @Override
    public int subscriberCount(Class<?> type) {
        return state.get().resolve(Objects.requireNonNull(type, "type")).length;
    }

    private boolean change(Class<?> type, ActorRef<?> ref, boolean add) {
        while (true) {
            State now = state.get();
            ActorRef<?>[] refs = now.byType().getOrDefault(type, new ActorRef<?>[0]);
            List<ActorRef<?>> list = new ArrayList<>(List.of(refs));
            boolean changed = add ? !list.contains(ref) && list.add(ref) : list.remove(ref);
            if (!changed) {
                return false;
            }
            Map<Class<?>, ActorRef<?>[]> next = new HashMap<>(now.byType());
            if (list.isEmpty()) {
                next.remove(type);
            } else {
                next.put(type, list.toArray(new ActorRef<?>[0]));
            }
            if (state.compareAndSet(now, new State(Map.copyOf(next)))) {
                return true;
            }
        }
    }
}
