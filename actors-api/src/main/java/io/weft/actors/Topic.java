package io.weft.actors;

/**
 * A named publish-subscribe topic of one message type (Pekko Typed's {@code Topic}): every
 * message published to it goes to every subscribed actor. A topic is found by name in its system:
 * {@link #of(ActorSystem, String, Class)} with the same name returns the same topic.
 *
 * <pre>{@code
 * Topic<Order> orders = Topic.of(system, "orders", Order.class);
 * orders.subscribe(billing);
 * orders.publish(new Order(42));
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>Each subscriber gets each message once, by {@code tell}, in the order one thread published.
 *   <li>A subscriber's subscription ends when it stops.
 *   <li>A message published while nobody is subscribed is a dead letter with
 *       {@link DeadLetter.Reason#NO_SUBSCRIBERS}, counted (Pekko does the same).
 *   <li>A topic is local to its system unless a cluster module spans it over nodes through
 *       {@link io.weft.actors.spi.TopicSpan} (actors-cluster does when its system joins a
 *       cluster): then a message also goes once to each other member with subscribers, which
 *       tells its own, and the dead letter comes only when no member has a subscriber.
 *   <li>All methods are thread-safe.
 * </ul>
 *
 * @param <T> the message type
 */
public interface Topic<T> {

    /**
     * The topic of that name in {@code system}, created on first use.
     *
     * @param system the system
     * @param name the topic's name, non-blank
     * @param type its message type
     * @param <T> the message type
     * @return the topic
     * @throws IllegalArgumentException if the name is blank, or the topic exists with another type
     */
    static <T> Topic<T> of(ActorSystem system, String name, Class<T> type) {
        return system.topic(name, type);
    }

    /** @return the topic's name */
    String name();

    /** @return the topic's message type */
    Class<T> messageType();

    /**
     * Sends {@code message} to every subscriber.
     *
     * @param message the message, not null
     * @throws NullPointerException if {@code message} is null
     * @throws IllegalArgumentException if it is not an instance of {@link #messageType()} (through
     *     an unchecked cast)
     */
    void publish(T message);

    /**
     * Subscribes an actor.
     *
     * @param subscriber the actor, not null
     * @return true if it was not subscribed yet
     */
    boolean subscribe(ActorRef<? super T> subscriber);

    /**
     * Unsubscribes an actor.
     *
     * @param subscriber the actor
     * @return true if it was subscribed
     */
    boolean unsubscribe(ActorRef<?> subscriber);

    /** @return how many actors are subscribed now */
    int subscriberCount();
}
