package io.weft.actors;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * A base class for actors written as a subclass with an {@link #act()} body (Haller and Odersky 2009, §2), as an
 * alternative to an inline {@link Behavior} lambda.
 *
 * <pre>{@code
 * final class Counter extends Actor<Object> {
 *     private int count;
 *     protected void act() {
 *         loop(() -> react(Receive.<Object>handler()
 *             .match(Integer.class, n -> count += n)
 *             .match(String.class, s -> reply(count))
 *             .build()));
 *     }
 * }
 * ActorRef<Object> ref = system.spawn("counter", new Counter());
 * }</pre>
 *
 * <p>Handlers are ordinary methods returning {@link Receive}, so a subclass can extend its parent's
 * behavior with {@link Receive#orElse(Receive)} (Haller and Odersky 2009, Fig. 2). An instance is the state of one
 * actor: spawn it once. The protected methods delegate to {@link #context()}; they may only be
 * called by the actor itself.
 *
 * @param <M> the type of messages on the actor's main channel
 */
public abstract class Actor<M> implements Behavior<M> {

    private ActorContext<M> context;

    /** Creates an actor; it runs when passed to {@code spawn}. */
    protected Actor() {
    }

    /**
     * The actor's body.
     *
     * @throws Exception anything; it fails the actor
     */
    protected abstract void act() throws Exception;

    @Override
    public final void start(ActorContext<M> self) throws Exception {
        Objects.requireNonNull(self, "self");
        if (context != null && context != self) {
            throw new IllegalStateException(getClass().getName() + " instance is already an actor; spawn a new instance");
        }
        context = self;
        act();
    }

    /**
     * This actor's context.
     *
     * @return the context
     * @throws IllegalStateException before the actor started
     */
    protected final ActorContext<M> context() {
        if (context == null) {
            throw new IllegalStateException("actor " + getClass().getName() + " has not started yet");
        }
        return context;
    }

    /** @return this actor's ref; see {@link ActorContext#self()} */
    protected final ActorRef<M> self() {
        return context().self();
    }

    /** @return the sender of the current message, or null; see {@link ActorContext#sender()} */
    protected final ActorRef<?> sender() {
        return context().sender();
    }

    /** @param message the reply; see {@link ActorContext#reply(Object)} */
    protected final void reply(Object message) {
        context().reply(message);
    }

    /**
     * @param target the recipient
     * @param message the message
     * @param <T> the target's type; see {@link ActorContext#forward(Channel, Object)}
     */
    protected final <T> void forward(Channel<T> target, T message) {
        context().forward(target, message);
    }

    /** @param handler the continuation; see {@link ActorContext#react(Receive)} */
    protected final void react(Receive<? super M, ?> handler) {
        context().react(handler);
    }

    /** @param handler the handler for every message; see {@link ActorContext#become(Receive)} */
    protected final void become(Receive<? super M, ?> handler) {
        context().become(handler);
    }

    /**
     * @param handler the cases
     * @param <R> the result type
     * @return the result; see {@link ActorContext#receive(Receive)}
     */
    protected final <R> R receive(Receive<? super M, R> handler) {
        return context().receive(handler);
    }

    /**
     * @param timeout how long to wait
     * @param handler the cases
     * @param <R> the result type
     * @return the result; see {@link ActorContext#receiveWithin(Duration, Receive)}
     */
    protected final <R> R receiveWithin(Duration timeout, Receive<? super M, R> handler) {
        return context().receiveWithin(timeout, handler);
    }

    /** @param body the step; see {@link ActorContext#loop(Runnable)} */
    protected final void loop(Runnable body) {
        context().loop(body);
    }

    /**
     * @param condition the guard
     * @param body the step; see {@link ActorContext#loopWhile(BooleanSupplier, Runnable)}
     */
    protected final void loopWhile(BooleanSupplier condition, Runnable body) {
        context().loopWhile(condition, body);
    }

    /**
     * @param first the first step
     * @param next the next step; see {@link ActorContext#andThen(Runnable, Runnable)}
     */
    protected final void andThen(Runnable first, Runnable next) {
        context().andThen(first, next);
    }

    /**
     * @param type the channel's message type
     * @param <T> that type
     * @return the channel; see {@link ActorContext#open(Class)}
     */
    protected final <T> Channel<T> open(Class<T> type) {
        return context().open(type);
    }

    /** @param hook cleanup run once when this actor stops; see {@link ActorContext#onStop(Runnable)} */
    protected final void onStop(Runnable hook) {
        context().onStop(hook);
    }

    /** Stops this actor; see {@link ActorContext#stop()}. */
    protected final void stop() {
        context().stop();
    }
}
