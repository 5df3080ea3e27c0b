package io.weft.actors.spi;

import io.weft.actors.ActorSystem;
import io.weft.actors.Topic;
import java.util.Objects;

/**
 * Makes a system's named topics ({@link Topic}) span several nodes: a cluster module installs one
 * span per system with {@link #install}; the runtime then tells it which topics have local
 * subscribers ({@link #subscribersChanged}) and hands it every message published on this node
 * ({@link #forward}), and the span hands messages from other nodes back with
 * {@link #deliverLocally}. Without a span, topics are local to their system.
 *
 * <p>A message published on a node goes to that node's subscribers by {@code tell} and, through
 * {@link #forward}, once to each other node that has subscribers, which fans it out to its own.
 * A message that reaches no subscriber anywhere (no local one, and {@code forward} sent it to no
 * node) is a dead letter with {@link io.weft.actors.DeadLetter.Reason#NO_SUBSCRIBERS}.
 */
public interface TopicSpan {

    /**
     * Called by the runtime after a subscription of a local actor to {@code topic} was added or
     * removed (a stopped subscriber included), and for every existing topic when the span is
     * installed. Calls may come from several threads in any order: read
     * {@link Topic#subscriberCount()} for the current state rather than counting calls. Must not
     * block or throw.
     *
     * @param topic the topic whose local subscribers changed
     */
    void subscribersChanged(Topic<?> topic);

    /**
     * Called by the runtime, on the publishing thread, for each message published on this node:
     * sends it once to every other node that has subscribers of the topic (not back to this
     * one). Must not block or throw; a node that cannot be reached is the span's to report.
     *
     * @param topic the topic
     * @param message the message, an instance of the topic's type
     * @return the number of other nodes it was sent to
     */
    int forward(Topic<?> topic, Object message);

    /**
     * The runtime's side, implemented by its systems. Users and span implementations call the
     * static methods of {@link TopicSpan} instead.
     */
    interface Host {

        /**
         * The installed span.
         *
         * @return the span, or null if none
         */
        TopicSpan topicSpan();

        /**
         * Replaces the span if the installed one is {@code expected}; a new non-null span is then
         * told about every existing topic ({@link TopicSpan#subscribersChanged}).
         *
         * @param expected the span expected to be installed (null for none)
         * @param next the new span (null to remove)
         * @return whether the span was replaced
         */
        boolean replaceTopicSpan(TopicSpan expected, TopicSpan next);

        /**
         * Delivers a message that came from another node to this node's subscribers of the named
         * topic only (it is not forwarded again). With no local subscriber, or no topic of that
         * name here, the message is a dead letter ({@code NO_SUBSCRIBERS}); a message that is not
         * of the local topic's type is a dead letter with {@code REMOTE_REFUSED}.
         *
         * @param topic the topic's name
         * @param message the message
         * @return the number of local subscribers it was told to
         */
        int deliverLocally(String topic, Object message);
    }

    /**
     * Installs the span of a system, replacing any other; the span is at once told about every
     * existing topic.
     *
     * @param system the system
     * @param span the span
     * @throws IllegalArgumentException if the system's implementation cannot span topics
     */
    static void install(ActorSystem system, TopicSpan span) {
        Objects.requireNonNull(span, "span");
        Host h = host(system);
        while (true) {
            TopicSpan now = h.topicSpan();
            if (h.replaceTopicSpan(now, span)) {
                return;
            }
        }
    }

    /**
     * Removes a system's span, if it is {@code span}; its topics are local again.
     *
     * @param system the system
     * @param span the span installed earlier
     */
    static void uninstall(ActorSystem system, TopicSpan span) {
        host(system).replaceTopicSpan(Objects.requireNonNull(span, "span"), null);
    }

    /**
     * The span installed for a system.
     *
     * @param system the system
     * @return the span, or null if none is installed (or the system cannot span topics)
     */
    static TopicSpan of(ActorSystem system) {
        return system instanceof Host h ? h.topicSpan() : null;
    }

    /**
     * Delivers a message from another node to the local subscribers of a topic: see
     * {@link Host#deliverLocally}.
     *
     * @param system the system
     * @param topic the topic's name
     * @param message the message
     * @return the number of local subscribers it was told to
     */
    static int deliverLocally(ActorSystem system, String topic, Object message) {
        return host(system).deliverLocally(Objects.requireNonNull(topic, "topic"), Objects.requireNonNull(message, "message"));
    }

    private static Host host(ActorSystem system) {
        Objects.requireNonNull(system, "system");
        if (system instanceof Host h) {
            return h;
        }
        throw new IllegalArgumentException("actor system \"" + system.name() + "\" (" + system.getClass().getName()
                + ") cannot span topics across nodes: its implementation does not implement TopicSpan.Host; use io.weft:actors-runtime");
    }
}
