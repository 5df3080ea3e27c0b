package io.weft.actors;

import io.weft.actors.internal.Cases;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A message handler as a first-class partial function (Haller and Odersky 2009, §2): it is defined at some messages
 * and not at others, and can be combined with {@link #orElse(Receive)}.
 *
 * <p>Handlers are built from cases, tried in order: by class, by class and guard predicate, on a
 * given {@link Channel}, or any message. Record components are reached through the guard and the
 * action (for example {@code p -> p instanceof Put(var x) && x > 0}).
 *
 * <pre>{@code
 * Receive<Object, Void> h = Receive.<Object>handler()
 *     .match(Order.class, o -> reply(new Ack(o)))
 *     .match(Cancel.class, c -> c.pending(), c -> reply(new Ack(c)))
 *     .matchAny(junk::add)
 *     .build();
 * }</pre>
 *
 * <p>A case on no channel matches the actor's main channel; use
 * {@link Builder#on(Channel, Class, Function)} for an opened channel. A handler built here is
 * immutable and may be shared; its actions run on the actor that uses it.
 *
 * @param <M> the main channel's message type
 * @param <R> the result type ({@link Void} for react handlers)
 */
public interface Receive<M, R> {

    /** Returned by {@link #tryApply(Channel, Object)} when no case matches. */
    Object NO_MATCH = Cases.NO_MATCH;

    /**
     * Whether some case matches {@code message} arriving on {@code channel}.
     *
     * @param channel the channel it arrived on, or null for the main channel
     * @param message the message
     * @return true if {@link #apply(Channel, Object)} would run a case
     */
    boolean isDefinedAt(Channel<?> channel, Object message);

    /**
     * Runs the first matching case.
     *
     * @param channel the channel it arrived on, or null for the main channel
     * @param message the message
     * @return the case's result
     * @throws IllegalArgumentException if no case matches
     */
    R apply(Channel<?> channel, Object message);

    /**
     * Runs the first matching case, or returns {@link #NO_MATCH}; one scan instead of
     * {@code isDefinedAt} followed by {@code apply}.
     *
     * @param channel the channel it arrived on, or null for the main channel
     * @param message the message
     * @return the case's result, or {@link #NO_MATCH}
     */
    Object tryApply(Channel<?> channel, Object message);

    /**
     * Whether {@code message} on the main channel is matched.
     *
     * @param message the message
     * @return see {@link #isDefinedAt(Channel, Object)}
     */
    default boolean isDefinedAt(M message) {
        return isDefinedAt(null, message);
    }

    /**
     * Applies the handler to a main-channel message.
     *
     * @param message the message
     * @return see {@link #apply(Channel, Object)}
     */
    default R apply(M message) {
        return apply(null, message);
    }

    /**
     * Whether this handler has a timeout case, used by {@link ActorContext#receiveWithin}.
     *
     * @return true if a timeout case was given
     */
    boolean hasTimeoutCase();

    /**
     * Runs the timeout case.
     *
     * @return its result
     * @throws ReceiveTimeoutException if there is none
     */
    R onTimeout();

    /**
     * Whether every message this handler could ever match, {@code other} matches too, whatever the
     * actor's state: true only if this handler's matching depends on the message's class and
     * channel alone (no guard) and each of its cases is covered by a guard-free case of
     * {@code other}. A handler is covered by itself exactly when it has no guard. False when not
     * known (the default, for handlers not built by {@link #handler()} or {@link #returning()}).
     *
     * <p>The runtime uses it to skip kept messages (selective receive) that cannot match: a message
     * that {@code other} did not match is not offered to this handler again.
     *
     * @param other another handler (or this one)
     * @return true if a message {@code other} does not match can never match this handler
     */
    default boolean matchesOnlyWhere(Receive<?, ?> other) {
        return false;
    }

    /**
     * A handler defined where this one is, and elsewhere where {@code other} is; this one's cases
     * win where both match.
     *
     * @param other the fallback
     * @return the combined handler
     */
    Receive<M, R> orElse(Receive<? super M, ? extends R> other);

    /**
     * Starts a handler whose cases consume messages and return nothing: the usual kind for
     * {@code react}.
     *
     * @param <M> the main channel's message type
     * @return a builder
     */
    static <M> HandlerBuilder<M> handler() {
        return new HandlerBuilder<>();
    }

    /**
     * Starts a handler whose cases return a result: the usual kind for {@code receive}.
     *
     * @param <M> the main channel's message type
     * @param <R> the result type
     * @return a builder
     */
    static <M, R> Builder<M, R> returning() {
        return new Builder<>();
    }

    /**
     * Builds a {@link Receive} whose cases return results. Not thread-safe; {@link #build()} returns
     * an immutable handler.
     *
     * @param <M> the main channel's message type
     * @param <R> the result type
     */
    final class Builder<M, R> {
        private final Cases.Collector<R> cases = new Cases.Collector<>();

        Builder() {
        }

        /**
         * Adds a case for main-channel messages of {@code type}.
         *
         * @param type the class to match (subclasses match too)
         * @param action what to do
         * @param <T> the matched type
         * @return this builder
         */
        public <T extends M> Builder<M, R> match(Class<T> type, Function<? super T, ? extends R> action) {
            cases.add(null, type, null, action, false);
            return this;
        }

        /**
         * Adds a case for main-channel messages of {@code type} for which {@code guard} holds.
         *
         * @param type the class to match
         * @param guard the extra condition; it must not have side effects
         * @param action what to do
         * @param <T> the matched type
         * @return this builder
         */
        public <T extends M> Builder<M, R> match(Class<T> type, Predicate<? super T> guard, Function<? super T, ? extends R> action) {
            cases.add(null, type, guard, action, false);
            return this;
        }

        /**
         * Adds a case for messages of {@code type} on an opened channel.
         *
         * @param channel the channel
         * @param type the class to match
         * @param action what to do
         * @param <C> the channel's type
         * @param <T> the matched type
         * @return this builder
         */
        public <C, T extends C> Builder<M, R> on(Channel<C> channel, Class<T> type, Function<? super T, ? extends R> action) {
            cases.add(channel, type, null, action, false);
            return this;
        }

        /**
         * Adds a case for messages of {@code type} on an opened channel for which {@code guard} holds.
         *
         * @param channel the channel
         * @param type the class to match
         * @param guard the extra condition
         * @param action what to do
         * @param <C> the channel's type
         * @param <T> the matched type
         * @return this builder
         */
        public <C, T extends C> Builder<M, R> on(Channel<C> channel, Class<T> type, Predicate<? super T> guard,
                                                 Function<? super T, ? extends R> action) {
            cases.add(channel, type, guard, action, false);
            return this;
        }

        /**
         * Adds a case matching any main-channel message.
         *
         * @param action what to do
         * @return this builder
         */
        public Builder<M, R> matchAny(Function<Object, ? extends R> action) {
            cases.add(null, Object.class, null, action, false);
            return this;
        }

        /**
         * Adds a case for a lifecycle {@link Signal} ({@link Terminated} of a watched actor, a
         * trapped {@link Exit}), which arrives on the main channel whatever its message type; so a
         * typed actor ({@code Receive.<Cmd, R>returning()}) can handle it.
         *
         * @param type the signal's class
         * @param action what to do
         * @param <S> the signal type
         * @return this builder
         */
        public <S extends Signal> Builder<M, R> onSignal(Class<S> type, Function<? super S, ? extends R> action) {
            cases.add(null, type, null, action, false);
            return this;
        }

        /**
         * Sets the case run by {@link ActorContext#receiveWithin} when nothing matched in time
         * (the {@code TIMEOUT} of Haller and Odersky 2009).
         *
         * @param action the timeout action
         * @return this builder
         */
        public Builder<M, R> onTimeout(Supplier<? extends R> action) {
            cases.timeout(action);
            return this;
        }

        /**
         * Builds the handler.
         *
         * @return an immutable handler
         * @throws IllegalStateException if no case was added
         */
        public Receive<M, R> build() {
            return cases.build();
        }
    }

    /**
     * Builds a {@link Receive} whose cases consume messages ({@code Receive<M, Void>}).
     *
     * @param <M> the main channel's message type
     */
    final class HandlerBuilder<M> {
        private final Cases.Collector<Void> cases = new Cases.Collector<>();

        HandlerBuilder() {
        }

        /**
         * @param type the class to match
         * @param action what to do
         * @param <T> the matched type
         * @return this builder; see {@link Builder#match(Class, Function)}
         */
        public <T extends M> HandlerBuilder<M> match(Class<T> type, Consumer<? super T> action) {
            cases.add(null, type, null, action, true);
            return this;
        }

        /**
         * @param type the class to match
         * @param guard the extra condition
         * @param action what to do
         * @param <T> the matched type
         * @return this builder; see {@link Builder#match(Class, Predicate, Function)}
         */
        public <T extends M> HandlerBuilder<M> match(Class<T> type, Predicate<? super T> guard, Consumer<? super T> action) {
            cases.add(null, type, guard, action, true);
            return this;
        }

        /**
         * @param channel the channel
         * @param type the class to match
         * @param action what to do
         * @param <C> the channel's type
         * @param <T> the matched type
         * @return this builder; see {@link Builder#on(Channel, Class, Function)}
         */
        public <C, T extends C> HandlerBuilder<M> on(Channel<C> channel, Class<T> type, Consumer<? super T> action) {
            cases.add(channel, type, null, action, true);
            return this;
        }

        /**
         * @param channel the channel
         * @param type the class to match
         * @param guard the extra condition
         * @param action what to do
         * @param <C> the channel's type
         * @param <T> the matched type
         * @return this builder; see {@link Builder#on(Channel, Class, Predicate, Function)}
         */
        public <C, T extends C> HandlerBuilder<M> on(Channel<C> channel, Class<T> type, Predicate<? super T> guard,
                                                     Consumer<? super T> action) {
            cases.add(channel, type, guard, action, true);
            return this;
        }

        /**
         * Adds a case for a lifecycle {@link Signal} such as {@link Terminated}, so a typed actor
         * that watches another gets told when it stops:
         *
         * <pre>{@code
         * Receive<Cmd, Void> h = Receive.<Cmd>handler()
         *     .match(Work.class, w -> ...)
         *     .onSignal(Terminated.class, t -> ...)
         *     .build();
         * }</pre>
         *
         * @param type the signal's class
         * @param action what to do
         * @param <S> the signal type
         * @return this builder; see {@link Builder#onSignal(Class, Function)}
         */
        public <S extends Signal> HandlerBuilder<M> onSignal(Class<S> type, Consumer<? super S> action) {
            cases.add(null, type, null, action, true);
            return this;
        }

        /**
         * @param action what to do with any main-channel message
         * @return this builder; see {@link Builder#matchAny(Function)}
         */
        public HandlerBuilder<M> matchAny(Consumer<Object> action) {
            cases.add(null, Object.class, null, action, true);
            return this;
        }

        /**
         * @param action the timeout action
         * @return this builder; see {@link Builder#onTimeout(Supplier)}
         */
        public HandlerBuilder<M> onTimeout(Runnable action) {
            java.util.Objects.requireNonNull(action, "action");
            cases.timeout(() -> {
                action.run();
                return null;
            });
            return this;
        }

        /**
         * @return the immutable handler; see {@link Builder#build()}
         */
        public Receive<M, Void> build() {
            return cases.build();
        }
    }
}
