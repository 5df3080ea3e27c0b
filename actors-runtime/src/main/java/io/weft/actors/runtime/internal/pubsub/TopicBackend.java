package io.weft.actors.runtime.internal.pubsub;

import io.weft.actors.Topic;

/**
 * Makes the topics of a system. The local backend ({@link LocalTopicBackend}) delivers to the
 * subscribers of this system, and to other nodes through the {@link io.weft.actors.spi.TopicSpan}
 * a cluster module installs (the public seam for topics that span nodes).
 */
interface TopicBackend {

    /**
     * @param name the topic's name, validated
     * @param type its message type
     * @param pubsub the system's publish-subscribe (unsubscribe-on-stop and dead letters)
     * @param <T> the message type
     * @return a new topic
     */
    <T> Topic<T> create(String name, Class<T> type, PubSub pubsub);
}
