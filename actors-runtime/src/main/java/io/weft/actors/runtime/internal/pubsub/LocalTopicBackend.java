package io.weft.actors.runtime.internal.pubsub;

import io.weft.actors.ActorRef;
import io.weft.actors.Topic;
import io.weft.actors.spi.TopicSpan;
import java.util.Objects;

/**
 * Topics whose subscribers are the actors of this system; a {@link TopicSpan}, when the system
 * has one, also carries them to other nodes.
 */
final class LocalTopicBackend implements TopicBackend {

    /** A topic that can deliver a message from another node to its local subscribers only. */
    interface Local {
        /**
         * @param message a message published on another node
         * @return the number of local subscribers it was told to (0: a dead letter)
         */
        int deliverLocally(Object message);
    }

    @Override
    public <T> Topic<T> create(String name, Class<T> type, PubSub pubsub) {
        return new LocalTopic<>(name, type, pubsub);
    }

    /**
     * A topic delivering by {@code tell} to a copy-on-write set of local subscribers, and
     * forwarding through the system's span (if any) to the other nodes with subscribers.
     */
    private static final class LocalTopic<T> implements Topic<T>, Local {
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
            TopicSpan span = pubsub.span();
            int nodes = span == null ? 0 : span.forward(this, message);
            if (subs.length == 0) {
                if (nodes == 0) {
                    pubsub.noSubscribers(message, self);
                }
                return;
            }
            for (ActorRef<Object> s : subs) {
                s.tell(message);
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public int deliverLocally(Object message) {
            if (!type.isInstance(message)) {
                pubsub.refused(message, self); // another node's topic of this name carries another type
                return 0;
            }
            ActorRef<Object>[] subs = (ActorRef<Object>[]) subscribers.snapshot();
            if (subs.length == 0) {
                pubsub.noSubscribers(message, self);
                return 0;
            }
            for (ActorRef<Object> s : subs) {
                s.tell(message);
            }
            return subs.length;
        }

        @Override
        public boolean subscribe(ActorRef<? super T> subscriber) {
            Objects.requireNonNull(subscriber, () -> "topic \"" + name + "\": subscriber is null; pass the actor's ref");
            pubsub.watchStops();
            boolean added = subscribers.add(subscriber);
            if (subscriber.isTerminated()) {
                if (subscribers.remove(subscriber)) {
                    pubsub.subscribersChanged(this);
                }
                return false;
            }
            if (added) {
                pubsub.subscribersChanged(this);
            }
            return added;
        }

        @Override
        public boolean unsubscribe(ActorRef<?> subscriber) {
            boolean removed = subscriber != null && subscribers.remove(subscriber);
            if (removed) {
                pubsub.subscribersChanged(this);
            }
            return removed;
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
