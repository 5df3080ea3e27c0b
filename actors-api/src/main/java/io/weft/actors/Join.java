package io.weft.actors;

import io.weft.actors.internal.Cases;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Join patterns (Karmani et al. 2009, §4.3, the join expressions of Scala actors and ActorFoundry): react to a
 * set of messages, from one or several channels, as if it were one message.
 *
 * <pre>{@code
 * Join<Object> join = Join.builder()
 *     .join(Left.class, Right.class, (l, r) -> self.reply(l.value() + r.value()))
 *     .join(orders, Order.class, payments, Payment.class, (o, p) -> ship(o, p))
 *     .build();
 * self.loop(() -> self.react(join.handler()));
 * }</pre>
 *
 * <h2>Semantics</h2>
 * The handler is defined at every message some pattern names. A message that does not complete a
 * pattern is held by the join, in arrival order per slot; when a message completes one or more
 * patterns, one of them is chosen, the oldest message of each of its slots is removed at once, and
 * its action runs: a pattern's messages are consumed together or not at all. When several patterns
 * are complete at the same time, the choice rotates among them (round robin), so a pattern that
 * stays enabled is never passed over forever. A message is put in the first slot, in declaration
 * order, whose channel and class match it; patterns naming the same channel and class share that
 * slot.
 *
 * <p>The join is the state of one actor: use it from that actor only. Messages it holds are part of
 * that state. Build it with {@link Builder#build(ActorContext) build(self)} and the messages it still
 * holds when the actor stops (or restarts) become dead letters, like any other pending message;
 * {@link #drainHeld()} takes them out earlier, for example to forward them.
 *
 * @param <M> the main channel's message type
 */
public final class Join<M> {

    private final Channel<?>[] slotChannels;
    private final Class<?>[] slotTypes;
    private final ArrayDeque<Object>[] held;
    private final int[][] patterns;
    private final Consumer<Object[]>[] actions;
    private int next;

    private Join(Builder<M> b) {
        int n = b.slotTypes.size();
        slotChannels = b.slotChannels.toArray(new Channel<?>[n]);
        slotTypes = b.slotTypes.toArray(new Class<?>[n]);
        @SuppressWarnings({"unchecked", "rawtypes"})
        ArrayDeque<Object>[] h = new ArrayDeque[n];
        for (int i = 0; i < n; i++) {
            h[i] = new ArrayDeque<>();
        }
        held = h;
        patterns = b.patterns.toArray(new int[0][]);
        @SuppressWarnings({"unchecked", "rawtypes"})
        Consumer<Object[]>[] a = b.actions.toArray(new Consumer[0]);
        actions = a;
    }

    /**
     * @param <M> the main channel's message type
     * @return a builder
     */
    public static <M> Builder<M> builder() {
        return new Builder<>();
    }

    /** @return the handler that feeds this join; give it to {@code react} or {@code receive} */
    public Receive<M, Void> handler() {
        return new Handler<>(this);
    }

    /** @return how many messages the join holds, waiting for their patterns to complete */
    public int heldCount() {
        int n = 0;
        for (ArrayDeque<Object> q : held) {
            n += q.size();
        }
        return n;
    }

    /**
     * Removes and returns every message the join holds, slot by slot in arrival order.
     *
     * @return the held messages
     */
    public List<Object> drainHeld() {
        List<Object> all = new ArrayList<>();
        for (ArrayDeque<Object> q : held) {
            all.addAll(q);
            q.clear();
        }
        return all;
    }

    /** Sends each held message back to the channel it came from; once the owner stopped, a dead letter. */
    @SuppressWarnings("unchecked")
    private void returnHeld(ActorContext<?> owner) {
        for (int i = 0; i < held.length; i++) {
            Channel<Object> to = slotChannels[i] != null ? (Channel<Object>) slotChannels[i] : (Channel<Object>) owner.self();
            Object m;
            while ((m = held[i].pollFirst()) != null) {
                to.tell(m);
            }
        }
    }

    private int slotOf(Channel<?> channel, Object message) {
        for (int i = 0; i < slotTypes.length; i++) {
            if (slotChannels[i] == channel && slotTypes[i].isInstance(message)) {
                return i;
            }
        }
        return -1;
    }

    private void offer(int slot, Object message) {
        held[slot].addLast(message);
        int n = patterns.length;
        for (int k = 0; k < n; k++) {
            int p = (next + k) % n;
            if (complete(patterns[p], slot)) {
                next = (p + 1) % n;
                int[] slots = patterns[p];
                Object[] args = new Object[slots.length];
                for (int i = 0; i < slots.length; i++) {
                    args[i] = held[slots[i]].pollFirst();
                }
                actions[p].accept(args);
                return;
            }
        }
    }

    /** Complete, and uses the slot just filled (a pattern that does not was complete before). */
    private boolean complete(int[] pattern, int filled) {
        boolean uses = false;
        for (int i = 0; i < pattern.length; i++) {
            int s = pattern[i];
            uses |= s == filled;
            int need = 0;
            for (int j = 0; j < pattern.length; j++) {
                if (pattern[j] == s) {
                    need++;
                }
            }
            if (held[s].size() < need) {
                return false;
            }
        }
        return uses;
    }

    private static final class Handler<M> implements Receive<M, Void> {
        private final Join<M> join;

        Handler(Join<M> join) {
            this.join = join;
        }

        @Override
        public boolean isDefinedAt(Channel<?> channel, Object message) {
            return join.slotOf(channel, message) >= 0;
        }

        @Override
        public Void apply(Channel<?> channel, Object message) {
            if (tryApply(channel, message) == NO_MATCH) {
                throw new IllegalArgumentException("no join pattern names " + message.getClass().getName());
            }
            return null;
        }

        @Override
        public Object tryApply(Channel<?> channel, Object message) {
            int slot = join.slotOf(channel, message);
            if (slot < 0) {
                return NO_MATCH;
            }
            join.offer(slot, message);
            return null;
        }

        @Override
        public boolean hasTimeoutCase() {
            return false;
        }

        @Override
        public Void onTimeout() {
            throw new ReceiveTimeoutException("a join handler has no timeout case");
        }

        @Override
        public Receive<M, Void> orElse(Receive<? super M, ? extends Void> other) {
            return new Cases.OrElse<>(this, other);
        }
    }

    /**
     * Builds a {@link Join}.
     *
     * @param <M> the main channel's message type
     */
    public static final class Builder<M> {
        private final List<Channel<?>> slotChannels = new ArrayList<>();
        private final List<Class<?>> slotTypes = new ArrayList<>();
        private final List<int[]> patterns = new ArrayList<>();
        private final List<Consumer<Object[]>> actions = new ArrayList<>();

        Builder() {
        }

        private int slot(Channel<?> channel, Class<?> type) {
            Objects.requireNonNull(type, "type");
            for (int i = 0; i < slotTypes.size(); i++) {
                if (slotChannels.get(i) == channel && slotTypes.get(i) == type) {
                    return i;
                }
            }
            slotChannels.add(channel);
            slotTypes.add(type);
            return slotTypes.size() - 1;
        }

        /**
         * A pattern of two main-channel messages.
         *
         * @param left the first message's class
         * @param right the second message's class
         * @param action runs with both once both are present
         * @param <A> the first kind
         * @param <B> the second kind
         * @return this builder
         */
        public <A, B> Builder<M> join(Class<A> left, Class<B> right, BiConsumer<? super A, ? super B> action) {
            return join(null, left, null, right, action);
        }

        /**
         * A pattern of two messages on given channels (null for the main channel).
         *
         * @param leftChannel the first message's channel, or null for main
         * @param left the first message's class
         * @param rightChannel the second message's channel, or null for main
         * @param right the second message's class
         * @param action runs with both once both are present
         * @param <A> the first kind
         * @param <B> the second kind
         * @return this builder
         */
        public <A, B> Builder<M> join(Channel<? super A> leftChannel, Class<A> left, Channel<? super B> rightChannel, Class<B> right,
                BiConsumer<? super A, ? super B> action) {
            Objects.requireNonNull(action, "action");
            patterns.add(new int[] {slot(leftChannel, left), slot(rightChannel, right)});
            actions.add(args -> action.accept(left.cast(args[0]), right.cast(args[1])));
            return this;
        }

        /**
         * A pattern of any number of main-channel messages; the action gets them in the order of
         * {@code types}.
         *
         * @param types the classes, at least one
         * @param action runs with the messages once all are present
         * @return this builder
         */
        public Builder<M> joinAll(List<Class<?>> types, Consumer<List<Object>> action) {
            Objects.requireNonNull(action, "action");
            if (types.isEmpty()) {
                throw new IllegalArgumentException("types: a join pattern needs at least one class");
            }
            int[] slots = new int[types.size()];
            for (int i = 0; i < slots.length; i++) {
                slots[i] = slot(null, types.get(i));
            }
            patterns.add(slots);
            actions.add(args -> action.accept(List.of(args)));
            return this;
        }

        /**
         * Builds a join owned by an actor: the messages it holds when that actor stops or restarts
         * go back to their channels, where (the actor being stopped) they become dead letters.
         *
         * @param owner the context of the actor that uses the join
         * @return the join
         * @throws IllegalStateException if no pattern was given
         */
        public Join<M> build(ActorContext<?> owner) {
            java.util.Objects.requireNonNull(owner, "owner");
            Join<M> join = build();
            owner.onStop(() -> join.returnHeld(owner));
            return join;
        }

        /**
         * Builds a join not bound to an actor's lifecycle: messages it holds when the actor stops
         * are dropped unless taken with {@link Join#drainHeld()}. Prefer {@link #build(ActorContext)}.
         *
         * @return the join
         * @throws IllegalStateException if no pattern was given
         */
        public Join<M> build() {
            if (patterns.isEmpty()) {
                throw new IllegalStateException("a Join needs at least one pattern");
            }
            return new Join<>(this);
        }
    }
}
