package io.weft.actors.internal;

import io.weft.actors.Channel;
import io.weft.actors.Receive;
import io.weft.actors.ReceiveTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The {@link Receive} built by its builders: an ordered array of cases, tried first to last.
 *
 * @param <M> the main channel's message type
 * @param <R> the result type
 */
public final class Cases<M, R> implements Receive<M, R> {

    /* design
     * A flat array of cases so that matching is one loop with a Class.isInstance test per case,
     * no allocation. orElse of two Cases concatenates the arrays, so a Buffer2-style extension
     * (seed 000 Fig. 2) stays a single loop however deep the subclass chain.
     */

    /** The marker for "no case matched". */
    public static final Object NO_MATCH = new Object() {
        @Override
        public String toString() {
            return "NO_MATCH";
        }
    };

    private record Case(Channel<?> channel, Class<?> type, Predicate<Object> guard, Function<Object, ?> action) {
        boolean matches(Channel<?> on, Object message) {
            return channel == on && type.isInstance(message) && (guard == null || guard.test(message));
        }
    }

    private final Case[] cases;
    private final Supplier<?> timeout;
    // The first case again, in this object's own fields: most handlers match on their first case
    // (or have only one), and tryApply then reads one object instead of array, element and case.
    private final Channel<?> firstChannel;
    private final Class<?> firstType;
    private final Predicate<Object> firstGuard;
    private final Function<Object, ?> firstAction;

    private Cases(Case[] cases, Supplier<?> timeout) {
        this.cases = cases;
        this.timeout = timeout;
        Case first = cases.length == 0 ? null : cases[0];
        this.firstChannel = first == null ? null : first.channel;
        this.firstType = first == null ? null : first.type;
        this.firstGuard = first == null ? null : first.guard;
        this.firstAction = first == null ? null : first.action;
    }

    @Override
    public boolean isDefinedAt(Channel<?> channel, Object message) {
        for (Case c : cases) {
            if (c.matches(channel, message)) {
                return true;
            }
        }
        return false;
    }

    @Override
    @SuppressWarnings("unchecked")
    public R apply(Channel<?> channel, Object message) {
        Object r = tryApply(channel, message);
        if (r == NO_MATCH) {
            throw new IllegalArgumentException("no case matches " + describe(message)
                    + (channel == null ? "" : " on channel " + channel));
        }
        return (R) r;
    }

    @Override
    public Object tryApply(Channel<?> channel, Object message) {
        if (firstType != null && firstChannel == channel && firstType.isInstance(message)
                && (firstGuard == null || firstGuard.test(message))) {
            return firstAction.apply(message); // cases[0], without loading it
        }
        Case[] all = cases;
        for (int i = 1; i < all.length; i++) {
            Case c = all[i];
            if (c.matches(channel, message)) {
                return c.action.apply(message);
            }
        }
        return NO_MATCH;
    }

    @Override
    public boolean hasTimeoutCase() {
        return timeout != null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public R onTimeout() {
        if (timeout == null) {
            throw new ReceiveTimeoutException("handler has no timeout case");
        }
        return (R) timeout.get();
    }

    @Override
    public Receive<M, R> orElse(Receive<? super M, ? extends R> other) {
        Objects.requireNonNull(other, "other");
        if (other instanceof Cases<?, ?> o) {
            Case[] all = new Case[cases.length + o.cases.length];
            System.arraycopy(cases, 0, all, 0, cases.length);
            System.arraycopy(o.cases, 0, all, cases.length, o.cases.length);
            return new Cases<>(all, timeout != null ? timeout : o.timeout);
        }
        return new OrElse<>(this, other);
    }

    /**
     * {@code first orElse second} for any two handlers.
     *
     * @param <M> the main channel's message type
     * @param <R> the result type
     */
    public static final class OrElse<M, R> implements Receive<M, R> {
        private final Receive<? super M, ? extends R> first;
        private final Receive<? super M, ? extends R> second;

        /**
         * @param first tried first
         * @param second tried where {@code first} is not defined
         */
        public OrElse(Receive<? super M, ? extends R> first, Receive<? super M, ? extends R> second) {
            this.first = Objects.requireNonNull(first, "first");
            this.second = Objects.requireNonNull(second, "second");
        }

        @Override
        public boolean isDefinedAt(Channel<?> channel, Object message) {
            return first.isDefinedAt(channel, message) || second.isDefinedAt(channel, message);
        }

        @Override
        @SuppressWarnings("unchecked")
        public R apply(Channel<?> channel, Object message) {
            Object r = tryApply(channel, message);
            if (r == NO_MATCH) {
                throw new IllegalArgumentException("no case matches " + describe(message));
            }
            return (R) r;
        }

        @Override
        public Object tryApply(Channel<?> channel, Object message) {
            Object r = first.tryApply(channel, message);
            return r != NO_MATCH ? r : second.tryApply(channel, message);
        }

        @Override
        public boolean hasTimeoutCase() {
            return first.hasTimeoutCase() || second.hasTimeoutCase();
        }

        @Override
        public R onTimeout() {
            return first.hasTimeoutCase() ? first.onTimeout() : second.onTimeout();
        }

        @Override
        public Receive<M, R> orElse(Receive<? super M, ? extends R> other) {
            return new OrElse<>(this, other);
        }
    }

    private static String describe(Object message) {
        return message == null ? "null" : message.getClass().getName();
    }

    /**
     * Collects cases for the builders of {@link Receive}.
     *
     * @param <R> the result type
     */
    public static final class Collector<R> {
        private final List<Case> list = new ArrayList<>();
        private Supplier<?> timeout;

        /**
         * Adds one case.
         *
         * @param channel the channel, or null for main
         * @param type the class
         * @param guard the guard, or null
         * @param action the action
         */
        @SuppressWarnings("unchecked")
        public void add(Channel<?> channel, Class<?> type, Predicate<?> guard, Function<?, ?> action) {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(action, "action");
            list.add(new Case(channel, type, (Predicate<Object>) guard, (Function<Object, ?>) action));
        }

        /**
         * Sets the timeout case.
         *
         * @param action the action
         */
        public void timeout(Supplier<?> action) {
            this.timeout = Objects.requireNonNull(action, "action");
        }

        /**
         * Builds the handler.
         *
         * @param <M> the main channel's type
         * @return the handler
         */
        public <M> Receive<M, R> build() {
            if (list.isEmpty() && timeout == null) {
                throw new IllegalStateException("a Receive needs at least one case");
            }
            return new Cases<>(list.toArray(new Case[0]), timeout);
        }
    }
}
