package io.weft.actors.internal;

import io.weft.actors.Channel;
import io.weft.actors.Receive;
import io.weft.actors.ReceiveTimeoutException;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
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
     * (Haller and Odersky 2009, Fig. 2) stays a single loop however deep the subclass chain.
     * The first case is unpacked into fields of this object, with a handler's consumer kept as
     * the action itself: a one-case handler is then one 40-byte object rather than
     * a Cases, an array, a Case and a wrapping lambda (96 bytes), and matching its message loads nothing but
     * this object before the user's code. Every message to an actor goes through here, and on
     * these machines the dependent loads of that chain are a measurable part of a message's
     * cost.
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

    private static final Case[] NONE = new Case[0];

    // The first case lives in this object's own fields: most handlers match on their first case
    // (or have only one), and tryApply then reads one object instead of array, element and case.
    // A first case built by Receive.handler() keeps the user's consumer itself as its action.
    private final Channel<?> firstChannel;
    /** The first case's class, or null when there is no message case (a timeout-only handler). */
    private final Class<?> firstType;
    private final Predicate<Object> firstGuard;
    /** A {@code Consumer<Object>} when {@link #firstConsumes}, else a {@code Function<Object, ?>}. */
    private final Object firstAction;
    private final boolean firstConsumes;
    /** The cases after the first, in order. */
    private final Case[] rest;
    private final Supplier<?> timeout;

    private Cases(Case[] cases, Supplier<?> timeout) {
        this(cases.length == 0 ? null : cases[0].channel, cases.length == 0 ? null : cases[0].type,
                cases.length == 0 ? null : cases[0].guard, cases.length == 0 ? null : unwrap(cases[0].action),
                cases.length != 0 && cases[0].action instanceof Consuming<?>,
                cases.length <= 1 ? NONE : copy(cases, 1, cases.length), timeout);
    }

    /**
     * @param firstType the first case's class, or null for none (a timeout-only handler; then the
     *     other first-case parameters are ignored)
     * @param firstAction a {@code Consumer} if {@code firstConsumes}, else a {@code Function}
     * @param rest the cases after the first, not copied
     */
    private Cases(Channel<?> firstChannel, Class<?> firstType, Predicate<Object> firstGuard, Object firstAction,
                  boolean firstConsumes, Case[] rest, Supplier<?> timeout) {
        this.timeout = timeout;
        boolean any = firstType != null;
        this.firstChannel = any ? firstChannel : null;
        this.firstType = firstType;
        this.firstGuard = any ? firstGuard : null;
        this.firstAction = any ? firstAction : null;
        this.firstConsumes = any && firstConsumes;
        this.rest = any ? rest : NONE;
    }

    /** A case's action as the first case keeps it: a handler's consumer itself, else the function. */
    private static Object unwrap(Function<Object, ?> action) {
        return action instanceof Consuming<?> c ? c.consumer() : action;
    }

    /**
     * {@code Arrays.copyOfRange} without its reflective array creation, which is slow until the
     * JIT has compiled the caller: a handler may be built per message from the first one on.
     */
    private static Case[] copy(Case[] from, int start, int end) {
        Case[] to = new Case[end - start];
        System.arraycopy(from, start, to, 0, to.length);
        return to;
    }

    /**
     * A handler case's action: runs the consumer and results in null. A first case recognizes it
     * and keeps the consumer alone, which it then calls directly.
     *
     * @param consumer what to do with the message
     * @param <T> the matched type
     * @return the action
     * @throws NullPointerException if consumer is null
     */
    public static <T> Function<T, Void> consuming(Consumer<? super T> consumer) {
        return new Consuming<>(Objects.requireNonNull(consumer, "action"));
    }

    /** See {@link #consuming(Consumer)}. */
    private record Consuming<T>(Consumer<? super T> consumer) implements Function<T, Void> {
        @Override
        public Void apply(T t) {
            consumer.accept(t);
            return null;
        }
    }

    /** @return every case in order, the first one rebuilt from the fields (orElse only) */
    @SuppressWarnings("unchecked")
    private Case[] all() {
        if (firstType == null) {
            return NONE;
        }
        Case[] all = new Case[1 + rest.length];
        Function<Object, ?> action = firstConsumes ? consuming((Consumer<Object>) firstAction) : (Function<Object, ?>) firstAction;
        all[0] = new Case(firstChannel, firstType, firstGuard, action);
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private boolean firstMatches(Channel<?> channel, Object message) {
        return firstType != null && firstChannel == channel && firstType.isInstance(message)
                && (firstGuard == null || firstGuard.test(message));
    }

    @Override
    public boolean isDefinedAt(Channel<?> channel, Object message) {
        if (firstMatches(channel, message)) {
            return true;
        }
        for (Case c : rest) {
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
    @SuppressWarnings("unchecked")
    public Object tryApply(Channel<?> channel, Object message) {
        if (firstMatches(channel, message)) {
            if (firstConsumes) {
                ((Consumer<Object>) firstAction).accept(message);
                return null;
            }
            return ((Function<Object, ?>) firstAction).apply(message);
        }
        for (Case c : rest) {
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

    /**
     * True if this handler has no guard and each of its cases is covered by a guard-free case of
     * {@code other} on the same channel for a supertype: then a message {@code other} did not
     * match cannot match this handler, now or later.
     */
    @Override
    public boolean matchesOnlyWhere(Receive<?, ?> other) {
        if (firstType == null) {
            return true; // a timeout-only handler matches no message
        }
        if (!(other instanceof Cases<?, ?> o) || !covered(firstChannel, firstType, firstGuard, o)) {
            return false;
        }
        for (Case c : rest) {
            if (!covered(c.channel, c.type, c.guard, o)) {
                return false;
            }
        }
        return true;
    }

    private static boolean covered(Channel<?> channel, Class<?> type, Predicate<Object> guard, Cases<?, ?> o) {
        if (guard != null || o.firstType == null) {
            return false;
        }
        if (o.firstGuard == null && o.firstChannel == channel && o.firstType.isAssignableFrom(type)) {
            return true;
        }
        for (Case c : o.rest) {
            if (c.guard == null && c.channel == channel && c.type.isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
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
            Case[] mine = all();
            Case[] theirs = o.all();
            Case[] all = Arrays.copyOf(mine, mine.length + theirs.length);
            System.arraycopy(theirs, 0, all, mine.length, theirs.length);
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
        public boolean matchesOnlyWhere(Receive<?, ?> other) {
            return first.matchesOnlyWhere(other) && second.matchesOnlyWhere(other);
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

        /* design
         * A loop(() -> react(handler)) actor builds a handler for every message it handles, so
         * building is on the message path and allocates as little as it can: the first case is
         * kept in fields of the collector (a handler's consumer as itself, no wrapping function),
         * the later ones in an array grown by doubling, and build() copies only the later ones
         * (new + arraycopy: Arrays.copyOf of a Case[] creates the array reflectively, which is slow
         * until the JIT has compiled the caller). A one-case handler allocates its collector and
         * its Cases, and no list, case or wrapper.
         */

        private Channel<?> firstChannel;
        /** Null until the first case is added. */
        private Class<?> firstType;
        private Predicate<Object> firstGuard;
        private Object firstAction;
        private boolean firstConsumes;
        private Case[] more = NONE;
        private int moreCount;
        private Supplier<?> timeout;

        /** Creates an empty collector. */
        public Collector() {
        }

        /**
         * Adds one case whose action returns the result.
         *
         * @param channel the channel, or null for main
         * @param type the class
         * @param guard the guard, or null
         * @param action the action
         */
        public void add(Channel<?> channel, Class<?> type, Predicate<?> guard, Function<?, ?> action) {
            add(channel, type, guard, action, false);
        }

        /**
         * Adds one case of a handler: its action consumes the message, and the result is null.
         *
         * @param channel the channel, or null for main
         * @param type the class
         * @param guard the guard, or null
         * @param action the action
         */
        public void addConsumer(Channel<?> channel, Class<?> type, Predicate<?> guard, Consumer<?> action) {
            add(channel, type, guard, action, true);
        }

        @SuppressWarnings("unchecked")
        private void add(Channel<?> channel, Class<?> type, Predicate<?> guard, Object action, boolean consumes) {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(action, "action");
            if (firstType == null) {
                firstChannel = channel;
                firstType = type;
                firstGuard = (Predicate<Object>) guard;
                firstAction = action;
                firstConsumes = consumes;
                return;
            }
            Function<Object, ?> f = consumes ? consuming((Consumer<Object>) action) : (Function<Object, ?>) action;
            if (moreCount == more.length) {
                Case[] bigger = new Case[Math.max(2, 2 * moreCount)];
                System.arraycopy(more, 0, bigger, 0, moreCount);
                more = bigger;
            }
            more[moreCount++] = new Case(channel, type, (Predicate<Object>) guard, f);
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
            if (firstType == null && timeout == null) {
                throw new IllegalStateException("a Receive needs at least one case");
            }
            return new Cases<>(firstChannel, firstType, firstGuard, firstAction, firstConsumes,
                    moreCount == 0 ? NONE : copy(more, 0, moreCount), timeout);
        }
    }
}
