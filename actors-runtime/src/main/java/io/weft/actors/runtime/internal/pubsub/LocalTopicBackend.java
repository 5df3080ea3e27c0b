package io.weft.actors.runtime.internal.pubsub;

import io.weft.actors.ActorRef;
import io.weft.actors.Topic;
import java.util.Objects;

/** Topics whose subscribers are the actors of this system. */
final class LocalTopicBackend implements TopicBackend {

    @Override
    public <T> Topic<T> create(String name, Class<T> type, PubSub pubsub) {
        return new LocalTopic<>(name, type, pubsub);
    }

    /** A topic delivering by {@code tell} to a copy-on-write set of local subscribers. */
    private static final class LocalTopic<T> implements Topic<T> {
        private final String name;
        private final Class<T> type;
        private final PubSub pubsub;
        private final SubscriberSet subscribers = new SubscriberSet();
        private final PseudoRef self;

        LocalTopic(String name, Class<T> type, PubSub pubsub) {
            this.name = name;
            this.type = type;
            this.pubsub = pubsub;
            this.self = new PseudoRef("topic/" + name, m -> publish(type.cast(m)));
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Class<T> messageType() {
            return type;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void publish(T message) {
            Objects.requireNonNull(message, () -> "topic \"" + name + "\": cannot publish null; publish a " + type.getName());
            if (!type.isInstance(message)) {
                throw new IllegalArgumentException("topic \"" + name + "\" carries " + type.getName() + ", was given a "
                        + message.getClass().getName());
            }
            ActorRef<Object>[] subs = (ActorRef<Object>[]) subscribers.snapshot();
            if (subs.length == 0) {
                pubsub.noSubscribers(message, self);
                return;
            }
            for (ActorRef<Object> s : subs) {
                s.tell(message);
            }
        }

        @Override
        public boolean subscribe(ActorRef<? super T> subscriber) {
            Objects.requireNonNull(subscriber, () -> "topic \"" + name + "\": subscriber is null; pass the actor's ref");
            pubsub.watchStops();
            boolean added = subscribers.add(subscriber);
            if (subscriber.isTerminated()) {
                subscribers.remove(subscriber);
                return false;
            }
            return added;
        }

        @Override
        public boolean unsubscribe(ActorRef<?> subscriber) {
            return subscriber != null && subscribers.remove(subscriber);
        }

        @Override
        public int subscriberCount() {
            return subscribers.snapshot().length;
        }

        @Override
        public String toString() {
            return "Topic[" + name + ", " + type.getName() + ", " + subscriberCount() + " subscribers]";
        }
    }
}
