package io.weft.actors.runtime.internal.pubsub;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;
import io.weft.actors.EventBus;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Topic;
import io.weft.actors.runtime.internal.telemetry.DeadLetterOffice;
import io.weft.actors.runtime.internal.telemetry.Listeners;
import io.weft.actors.spi.TopicSpan;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A system's publish-subscribe: the user event stream ({@link EventBus}) and the named topics.
 * <p>Topics live behind {@link TopicBackend}: this class keeps the registry (one topic per name,
 * with one message type) and asks the backend to make a topic; the local backend delivers by
 * {@code tell} to local subscribers, and to other nodes through the {@link TopicSpan} a cluster
 * module installs; nothing in {@link Topic} changes for that.
 * A message that no subscriber gets (event stream or topic) is a dead letter with
 * {@code NO_SUBSCRIBERS}, counted, as Pekko does for topics; for the event stream, where Pekko
 * drops it silently, this keeps the project's rule that no message is dropped unseen.
 */
public final class PubSub {
    /* design
     * Subscriptions are kept by SubscriberSets (copy-on-write, so publishing reads
     * one array and takes no lock). An actor's subscriptions end when it stops: the first subscription
     * registers one listener on the system's lifecycle stream, which on each
     * Kind.STOPPED removes that actor from the event stream and every topic
     * (a scan of each topic's subscriber array, on the stopping thread). A subscription made for an actor
     * that has already stopped is removed at once, after it was added, so a stop racing with a
     * subscribe cannot leave a subscription behind: either the listener sees the subscription or the
     * subscriber sees `isTerminated()`.
     *
     * A TopicSpan (installed by a cluster module through the system, a TopicSpan.Host) is told
     * every local subscription change (it re-reads the count, so calls racing from several
     * threads cannot leave it with a stale state: the last call comes after the last change) and
     * forwards every local publish to the other nodes with subscribers; messages from other nodes
     * come back through deliverLocally, which tells the local subscribers only, so a message
     * crosses the network at most once per node. Installing a span replays every existing topic
     * to it, so subscriptions made before the cluster was joined are announced too.
     */

    private final DeadLetterOffice deadLetters;
    private final Listeners<LifecycleEvent> lifecycle;
    private final TopicBackend backend;
    private final LocalEventBus eventBus;
    private final ConcurrentHashMap<String, Topic<?>> topics = new ConcurrentHashMap<>();
    private final ReentrantLock watchLock = new ReentrantLock();
    private volatile boolean watching;
    private final AtomicReference<TopicSpan> span = new AtomicReference<>();

    /**
     * @param deadLetters where undelivered messages go
     * @param lifecycle the system's lifecycle stream, for unsubscribe-on-stop
     */
    public PubSub(DeadLetterOffice deadLetters, Listeners<LifecycleEvent> lifecycle) {
        this.deadLetters = deadLetters;
        this.lifecycle = lifecycle;
        this.backend = new LocalTopicBackend();
        this.eventBus = new LocalEventBus(this);
    }

    /** @return the user event stream */
    public EventBus eventStream() {
        return eventBus;
    }

    /**
     * @param name the topic's name
     * @param type its message type
     * @param <T> the message type
     * @return the topic of that name, created on first use
     */
    @SuppressWarnings("unchecked")
    public <T> Topic<T> topic(String name, Class<T> type) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (name.isBlank()) {
            throw new IllegalArgumentException("topic name must not be blank, was \"" + name + "\"; give the topic a name such as \"orders\"");
        }
        Topic<?> t = topics.computeIfAbsent(name, n -> backend.create(n, type, this));
        if (t.messageType() != type) {
            throw new IllegalArgumentException("topic \"" + name + "\" exists with message type " + t.messageType().getName()
                    + ", asked for " + type.getName() + "; use one type per topic name, or another name");
        }
        return (Topic<T>) t;
    }

    /** Makes sure stops are seen; called before a subscription is added. */
    void watchStops() {
        if (!watching) {
            watchLock.lock(); // once per system: later subscribers must not pass before the listener is in
            try {
                if (!watching) {
                    lifecycle.subscribe(this::onLifecycle);
                    watching = true;
                }
            } finally {
                watchLock.unlock();
            }
        }
    }

    private void onLifecycle(LifecycleEvent e) {
        if (e.kind() == LifecycleEvent.Kind.STOPPED) {
            removeEverywhere(e.actor());
        }
    }

    void removeEverywhere(ActorRef<?> actor) {
        eventBus.unsubscribe(actor);
        for (Topic<?> t : topics.values()) {
            t.unsubscribe(actor);
        }
    }

    void noSubscribers(Object message, ActorRef<?> recipient) {
        deadLetters.publish(message, recipient, null, DeadLetter.Reason.NO_SUBSCRIBERS);
    }

    /** @return the installed span, or null */
    TopicSpan span() {
        return span.get();
    }

    /** Replaces the span if it is {@code expected}; a new span is told about every topic. */
    boolean replaceSpan(TopicSpan expected, TopicSpan next) {
        if (!span.compareAndSet(expected, next)) {
            return false;
        }
        if (next != null) {
            for (Topic<?> t : topics.values()) {
                next.subscribersChanged(t);
            }
        }
        return true;
    }

    /** Tells the span, if any, that a topic's local subscribers changed. */
    void subscribersChanged(Topic<?> topic) {
        TopicSpan s = span.get();
        if (s != null) {
            s.subscribersChanged(topic);
        }
    }

    /** A message from another node: to the local subscribers of the named topic only. */
    int deliverLocally(String name, Object message) {
        Topic<?> t = topics.get(name);
        if (t instanceof LocalTopicBackend.Local local) {
            return local.deliverLocally(message);
        }
        noSubscribers(message, new PseudoRef("topic/" + name, m -> deliverLocally(name, m)));
        return 0;
    }

    void refused(Object message, ActorRef<?> recipient) {
        deadLetters.publish(message, recipient, null, DeadLetter.Reason.REMOTE_REFUSED);
    }
}
