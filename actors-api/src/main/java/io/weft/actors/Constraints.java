package io.weft.actors;

import io.weft.actors.internal.Cases;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Local synchronization constraints (Karmani et al. 2009, §4.2): predicates on an actor's state, declared apart
 * from its handlers, that <em>disable</em> kinds of messages. A handler {@linkplain #guard guarded}
 * by the constraints is not defined at a disabled message, so the message waits in the actor's save
 * queue (the stash of selective receive), in arrival order, and is examined again each time the
 * actor sets its next handler, that is after each handled message when the actor loops.
 *
 * <pre>{@code
 * Constraints<Object> when = Constraints.builder()
 *     .disable(Put.class, p -> items.size() == capacity)   // put disabled when full
 *     .disable(Get.class, g -> items.isEmpty())            // get disabled when empty
 *     .build();
 * self.loop(() -> self.react(when.guard(Receive.handler()
 *     .match(Put.class, p -> items.add(p.item()))
 *     .match(Get.class, g -> self.reply(items.remove()))
 *     .build())));
 * }</pre>
 *
 * <p>Constraints run on the actor, when it looks at a message, never on the sender: a predicate that
 * throws fails the actor (and its supervisor strategy decides), not the {@code tell}. They should be
 * side-effect free, since they may be evaluated more than once per message. Works the same with
 * {@code receive} on thread-based actors. Immutable once built.
 *
 * @param <M> the main channel's message type
 */
public final class Constraints<M> {

    private final Channel<?>[] channels;
    private final Class<?>[] types;
    private final Predicate<Object>[] disabled;

    private Constraints(Builder<M> b) {
        int n = b.types.size();
        this.channels = b.channels.toArray(new Channel<?>[n]);
        this.types = b.types.toArray(new Class<?>[n]);
        @SuppressWarnings({"unchecked", "rawtypes"})
        Predicate<Object>[] d = b.predicates.toArray(new Predicate[n]);
        this.disabled = d;
    }

    /**
     * @param <M> the main channel's message type
     * @return a builder
     */
    public static <M> Builder<M> builder() {
        return new Builder<>();
    }

    /**
     * Whether some constraint disables {@code message} arriving on {@code channel} now.
     *
     * @param channel the channel, or null for the main channel
     * @param message the message
     * @return true if disabled
     */
    public boolean isDisabled(Channel<?> channel, Object message) {
        for (int i = 0; i < types.length; i++) {
            if (channels[i] == channel && types[i].isInstance(message) && disabled[i].test(message)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The handler restricted by these constraints: not defined at disabled messages, otherwise
     * {@code handler}.
     *
     * @param handler the handler
     * @param <R> its result type
     * @return the guarded handler
     */
    public <R> Receive<M, R> guard(Receive<M, R> handler) {
        return new Guarded<>(this, Objects.requireNonNull(handler, "handler"));
    }

    private static final class Guarded<M, R> implements Receive<M, R> {
        private final Constraints<M> constraints;
        private final Receive<M, R> handler;

        Guarded(Constraints<M> constraints, Receive<M, R> handler) {
            this.constraints = constraints;
            this.handler = handler;
        }

        @Override
        public boolean isDefinedAt(Channel<?> channel, Object message) {
            return !constraints.isDisabled(channel, message) && handler.isDefinedAt(channel, message);
        }

        @Override
        public R apply(Channel<?> channel, Object message) {
            if (constraints.isDisabled(channel, message)) {
                throw new IllegalArgumentException("message " + message.getClass().getName() + " is disabled by a synchronization constraint");
            }
            return handler.apply(channel, message);
        }

        @Override
        public Object tryApply(Channel<?> channel, Object message) {
            return constraints.isDisabled(channel, message) ? NO_MATCH : handler.tryApply(channel, message);
        }

        @Override
        public boolean hasTimeoutCase() {
            return handler.hasTimeoutCase();
        }

        @Override
        public R onTimeout() {
            return handler.onTimeout();
        }

        @Override
        public Receive<M, R> orElse(Receive<? super M, ? extends R> other) {
            return new Cases.OrElse<>(this, other);
        }
    }

    /**
     * Builds {@link Constraints}.
     *
     * @param <M> the main channel's message type
     */
    public static final class Builder<M> {
        private final List<Channel<?>> channels = new ArrayList<>();
        private final List<Class<?>> types = new ArrayList<>();
        private final List<Predicate<?>> predicates = new ArrayList<>();

        Builder() {
        }

        /**
         * Disables main-channel messages of {@code type} while {@code when} holds for them.
         *
         * @param type the message kind (subclasses too)
         * @param when true when the message must wait
         * @param <T> the kind
         * @return this builder
         */
        public <T> Builder<M> disable(Class<T> type, Predicate<? super T> when) {
            return add(null, type, when);
        }

        /**
         * Disables main-channel messages of {@code type} while {@code when} holds.
         *
         * @param type the message kind (subclasses too)
         * @param when true when messages of the kind must wait
         * @return this builder
         */
        public Builder<M> disableWhen(Class<?> type, BooleanSupplier when) {
            Objects.requireNonNull(when, "when");
            return add(null, type, m -> when.getAsBoolean());
        }

        /**
         * Disables messages of {@code type} arriving on {@code channel} while {@code when} holds.
         *
         * @param channel an opened channel of the actor
         * @param type the message kind
         * @param when true when the message must wait
         * @param <T> the kind
         * @return this builder
         */
        public <T> Builder<M> disable(Channel<? super T> channel, Class<T> type, Predicate<? super T> when) {
            return add(Objects.requireNonNull(channel, "channel"), type, when);
        }

        private Builder<M> add(Channel<?> channel, Class<?> type, Predicate<?> when) {
            types.add(Objects.requireNonNull(type, "type"));
            predicates.add(Objects.requireNonNull(when, "when"));
            channels.add(channel);
            return this;
        }

        /** @return the constraints */
        public Constraints<M> build() {
            return new Constraints<>(this);
        }
    }
}
