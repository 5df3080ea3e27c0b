package io.weft.actors.internal;

import io.weft.actors.Channel;
import io.weft.actors.Receive;
import io.weft.actors.ReceiveTimeoutException;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The {@link Receive} built by its builders: an ordered chain of cases, tried first to last.
 *
 * @param <M> the main channel's message type
 * @param <R> the result type
 */
public final class Cases<M, R> implements Receive<M, R> {

    /* design
     * The first case's class and action live in fields of this object, the later cases in a chain
     * of Case nodes, so that matching is one test of the fields and then a walk with a
     * Class.isInstance test per node, no allocation. Most handlers match on their first case (or
     * have only one), and most first cases are a consumer on the main channel without a guard:
     * such a handler of one case is one 24-byte object (a 12-byte header and three compressed
     * references: class, action, `more` = null), and matching its message loads nothing but this
     * object before the user's code. The later cases of a handler whose first case is plain are
     * in `more` itself (the chain's head); anything else (the first case's channel, guard or
     * function kind, a timeout case) is in a side object in `more` (More, with the chain), which
     * tryApply reads only when it is there. A handler's action is kept as the action itself, with
     * a flag saying it consumes (no wrapping function), in More and in the nodes.
     *
     * Building is on the message path: a loop(() -> react(handler)) actor builds a handler for
     * every message it handles. So the builder (Collector) allocates one node per case after the
     * first and nothing else: it appends to the chain through its tail, and build() hands the
     * chain to the Cases without copying it. The chain is immutable from then on: a builder that
     * gets another case after build() first copies its chain (copy on write, `shared`), so a
     * handler already built never changes. The nodes' `next` is written only before the Cases
     * that holds the chain is constructed, so the final field `more` (or More's final `rest`)
     * publishes the whole chain (JLS §17.5: objects reachable from a final field are seen at
     * least as up to date as the field). With the builder and the collector inlined, C2's escape
     * analysis removes both, so a one-case handler built per message costs its Cases and the
     * user's lambda (40 bytes; 56 with a 40-byte Cases that held every first-case field), a
     * two-case one 96 bytes (112; bench/results/ingress-builder.txt). Collector.add's comment
     * says why the path of a later case calls no helper.
     *
     * orElse of two Cases makes one chain of both, so a Buffer2-style extension (Haller and
     * Odersky 2009, Fig. 2) stays a single walk however deep the subclass chain.
     */

    /** The marker for "no case matched". */
    public static final Object NO_MATCH = new Object() {
        @Override
        public String toString() {
            return "NO_MATCH";
        }
    };

    /** One case after the first; {@code next} is written only while its chain is being built. */
    private static final class Case {
        final Channel<?> channel;
        final Class<?> type;
        final Predicate<Object> guard;
        /** A {@code Consumer<Object>} when {@link #consumes}, else a {@code Function<Object, ?>}. */
        final Object action;
        final boolean consumes;
        Case next;

        Case(Channel<?> channel, Class<?> type, Predicate<Object> guard, Object action, boolean consumes) {
            this.channel = channel;
            this.type = type;
            this.guard = guard;
            this.action = action;
            this.consumes = consumes;
        }

        boolean matches(Channel<?> on, Object message) {
            return channel == on && type.isInstance(message) && (guard == null || guard.test(message));
        }

        @SuppressWarnings("unchecked")
        Object run(Object message) {
            if (consumes) {
                ((Consumer<Object>) action).accept(message);
                return null;
            }
            return ((Function<Object, ?>) action).apply(message);
        }

        Case copy() {
            return new Case(channel, type, guard, action, consumes);
        }
    }

    /**
     * What a handler of one consuming case on the main channel without a guard does not have: the
     * first case's channel, guard and kind, the later cases and the timeout case.
     */
    private static final class More {
        final Channel<?> firstChannel;
        final Predicate<Object> firstGuard;
        final boolean firstConsumes;
        /** The cases after the first, in order, or null. */
        final Case rest;
        final Supplier<?> timeout;

        More(Channel<?> firstChannel, Predicate<Object> firstGuard, boolean firstConsumes, Case rest, Supplier<?> timeout) {
            this.firstChannel = firstChannel;
            this.firstGuard = firstGuard;
            this.firstConsumes = firstConsumes;
            this.rest = rest;
            this.timeout = timeout;
        }
    }

    /** The first case's class, or null when there is no message case (a timeout-only handler). */
    private final Class<?> firstType;
    /** A {@code Consumer<Object>} when the first case consumes, else a {@code Function<Object, ?>}. */
    private final Object firstAction;
    /**
     * Null when the first case is the only one and plain (a consumer on the main channel without
     * a guard, no timeout case); the chain of the later cases (a Case) when the first case is
     * plain and there is no timeout case; else a More. Not null when firstType is null.
     */
    private final Object more;

    private Cases(Class<?> firstType, Object firstAction, Object more) {
        this.firstType = firstType;
        this.firstAction = firstAction;
        this.more = more;
    }

    /**
     * @param firstType the first case's class, or null for none (a timeout-only handler; then the
     *     other first-case parameters are ignored)
     * @param firstAction a {@code Consumer} if {@code firstConsumes}, else a {@code Function}
     * @param rest the chain of the cases after the first, not copied: nobody writes it any more
     */
    private static <M, R> Cases<M, R> of(Channel<?> firstChannel, Class<?> firstType, Predicate<Object> firstGuard,
                                         Object firstAction, boolean firstConsumes, Case rest, Supplier<?> timeout) {
        if (firstType == null) {
            return new Cases<>(null, null, new More(null, null, false, null, timeout));
        }
        if (firstChannel == null && firstGuard == null && firstConsumes && timeout == null) {
            return new Cases<>(firstType, firstAction, rest);
        }
        return new Cases<>(firstType, firstAction, new More(firstChannel, firstGuard, firstConsumes, rest, timeout));
    }

    private Channel<?> firstChannel() {
        return more instanceof More m ? m.firstChannel : null;
    }

    private Predicate<Object> firstGuard() {
        return more instanceof More m ? m.firstGuard : null;
    }

    private boolean firstConsumes() {
        return !(more instanceof More m) || m.firstConsumes;
    }

    private Case rest() {
        Object m = more;
        return m instanceof More x ? x.rest : (Case) m;
    }

    private Supplier<?> timeout() {
        return more instanceof More m ? m.timeout : null;
    }

    private boolean firstMatches(Channel<?> channel, Object message) {
        if (more instanceof More m) {
            return firstType != null && m.firstChannel == channel && firstType.isInstance(message)
                    && (m.firstGuard == null || m.firstGuard.test(message));
        }
        return channel == null && firstType.isInstance(message);
    }

    @Override
    public boolean isDefinedAt(Channel<?> channel, Object message) {
        if (firstMatches(channel, message)) {
            return true;
        }
        for (Case c = rest(); c != null; c = c.next) {
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
        Object m = more;
        if (m == null) {
            // one plain case (a consumer on the main channel without a guard): the common handler
            if (channel == null && firstType.isInstance(message)) {
                ((Consumer<Object>) firstAction).accept(message);
                return null;
            }
            return NO_MATCH;
        }
        return tryCases(m, channel, message);
    }

    /** {@link #tryApply} of a handler with more than one plain case: the first case, then the others. */
    @SuppressWarnings("unchecked")
    private Object tryCases(Object m, Channel<?> channel, Object message) {
        if (!(m instanceof More x)) {
            // the first case is plain and later ones follow (`more` is the chain): no other call
            if (channel == null && firstType.isInstance(message)) {
                ((Consumer<Object>) firstAction).accept(message);
                return null;
            }
            return tryRest(channel, message);
        }
        if (firstMatches(channel, message)) {
            if (x.firstConsumes) {
                ((Consumer<Object>) firstAction).accept(message);
                return null;
            }
            return ((Function<Object, ?>) firstAction).apply(message);
        }
        return tryRest(channel, message);
    }

    /** The cases after the first: out of line, so that a handler matching on its first case inlines small. */
    private Object tryRest(Channel<?> channel, Object message) {
        for (Case c = rest(); c != null; c = c.next) {
            if (c.matches(channel, message)) {
                return c.run(message);
            }
        }
        return NO_MATCH;
    }

    @Override
    public boolean hasTimeoutCase() {
        return timeout() != null;
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
        if (!(other instanceof Cases<?, ?> o) || !covered(firstChannel(), firstType, firstGuard(), o)) {
            return false;
        }
        for (Case c = rest(); c != null; c = c.next) {
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
        if (o.firstGuard() == null && o.firstChannel() == channel && o.firstType.isAssignableFrom(type)) {
            return true;
        }
        for (Case c = o.rest(); c != null; c = c.next) {
            if (c.guard == null && c.channel == channel && c.type.isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }

    @Override
    @SuppressWarnings("unchecked")
    public R onTimeout() {
        Supplier<?> t = timeout();
        if (t == null) {
            throw new ReceiveTimeoutException("handler has no timeout case");
        }
        return (R) t.get();
    }

    @Override
    public Receive<M, R> orElse(Receive<? super M, ? extends R> other) {
        Objects.requireNonNull(other, "other");
        if (other instanceof Cases<?, ?> o) {
            Collector<R> all = new Collector<>();
            all.addAll(this);
            all.addAll(o);
            Supplier<?> t = timeout() != null ? timeout() : o.timeout();
            if (t != null) {
                all.timeout(t);
            }
            return all.build();
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
         * The first case in fields, the later ones appended to a chain of nodes through `tail`;
         * build() hands the chain over without a copy and marks it `shared`, and a case added
         * after that copies the chain first, so a built handler never changes (Cases' design
         * block).
         */

        private Channel<?> firstChannel;
        /** Null until the first case is added. */
        private Class<?> firstType;
        private Predicate<Object> firstGuard;
        private Object firstAction;
        private boolean firstConsumes;
        private Case head;
        private Case tail;
        /** The chain from head to tail belongs to a built handler: copy it before appending. */
        private boolean shared;
        private Supplier<?> timeout;

        /** Creates an empty collector. */
        public Collector() {
        }

        /**
         * Adds one case. The builders of {@link Receive} call this method directly, without a
         * helper per kind of action, so that a case costs a cold (interpreted or C1-profiled)
         * builder one call.
         *
         * @param channel the channel, or null for main
         * @param type the class
         * @param guard the guard, or null
         * @param action a {@code Consumer} if {@code consumes}, else a {@code Function}
         * @param consumes whether the action consumes the message (the result is null)
         */
        // One method with no calls on the path of a case after the first: a call to a helper that
        // C2 judges not hot enough (a builder of one case never takes this path) is left out of
        // line, the collector escapes into it, and a handler built per message then costs the
        // collector too. The copy of a shared chain is in static methods for the same reason.
        @SuppressWarnings("unchecked")
        public void add(Channel<?> channel, Class<?> type, Predicate<?> guard, Object action, boolean consumes) {
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
            Case c = new Case(channel, type, (Predicate<Object>) guard, action, consumes);
            if (shared) {
                // a case added after build(): the built handler keeps its chain, this builder a copy
                shared = false;
                head = copy(head);
                tail = last(head);
            }
            if (tail == null) {
                head = c;
            } else {
                tail.next = c;
            }
            tail = c;
        }

        private static Case copy(Case from) {
            Case head = null;
            Case tail = null;
            for (; from != null; from = from.next) {
                Case c = from.copy();
                if (tail == null) {
                    head = c;
                } else {
                    tail.next = c;
                }
                tail = c;
            }
            return head;
        }

        private static Case last(Case c) {
            while (c != null && c.next != null) {
                c = c.next;
            }
            return c;
        }

        /** Appends every case of {@code cases}, in order (orElse). */
        void addAll(Cases<?, ?> cases) {
            if (cases.firstType == null) {
                return;
            }
            add(cases.firstChannel(), cases.firstType, cases.firstGuard(), cases.firstAction, cases.firstConsumes());
            for (Case c = cases.rest(); c != null; c = c.next) {
                add(c.channel, c.type, c.guard, c.action, c.consumes);
            }
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
            if (head != null) {
                shared = true;
            }
            return of(firstChannel, firstType, firstGuard, firstAction, firstConsumes, head, timeout);
        }
    }
}
