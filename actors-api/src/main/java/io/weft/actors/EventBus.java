package io.weft.actors;

/**
 * The system's stream of user events ({@link ActorSystem#eventStream()}, Pekko's
 * {@code system.eventStream}): anyone publishes, actors subscribe by event class.
 *
 * <pre>{@code
 * system.eventStream().subscribe(OrderPlaced.class, auditor);
 * system.eventStream().publish(new OrderPlaced(42));
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>A subscriber to a class gets every published event that is an instance of it, so
 *       subscribing to a supertype (or an interface) gets its subtypes. An actor subscribed
 *       through several matching classes gets each event once.
 *   <li>Events reach a subscriber by {@code tell}, in the order one thread published them.
 *   <li>An actor's subscriptions end when it stops; no unsubscribe is needed.
 *   <li>An event that no subscriber matches is a dead letter with
 *       {@link DeadLetter.Reason#NO_SUBSCRIBERS}, counted (so nothing is dropped unseen).
 *   <li>All methods are thread-safe.
 * </ul>
 */
public interface EventBus {

    /**
     * Sends {@code event} to every actor subscribed to one of its classes.
     *
     * @param event the event, not null
     * @throws NullPointerException if {@code event} is null
     */
    void publish(Object event);

    /**
     * Subscribes {@code subscriber} to the events that are instances of {@code type}.
     *
     * @param type the event class (subtypes included), not null
     * @param subscriber the actor, not null
     * @param <E> the event type
     * @return true if this subscription is new
     */
    <E> boolean subscribe(Class<E> type, ActorRef<? super E> subscriber);

    /**
     * Ends one subscription.
     *
     * @param type the event class it was made for
     * @param subscriber the actor
     * @return true if there was such a subscription
     */
    boolean unsubscribe(Class<?> type, ActorRef<?> subscriber);

    /**
     * Ends every subscription of {@code subscriber}.
     *
     * @param subscriber the actor
     * @return true if it had any
     */
    boolean unsubscribe(ActorRef<?> subscriber);

    /**
     * How many actors would get an event of class {@code type} now.
     *
     * @param type an event class
     * @return the number of distinct subscribers whose class {@code type} is assignable to
     */
    int subscriberCount(Class<?> type);
}
