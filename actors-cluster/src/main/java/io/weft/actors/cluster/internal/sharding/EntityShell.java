package io.weft.actors.cluster.internal.sharding;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Channel;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Timers;
import io.weft.actors.Unhandled;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/** Runs an entity's behavior with a context that counts handled messages and obeys the region's stop marker. */
final class EntityShell {

    /* design
     * The entity is an ordinary child actor of its region running the user's behavior, but with
     * a context that delegates everything to the real one except react, become, receive and
     * receiveWithin, whose handlers it wraps:
     *
     *  - the wrapped handler matches STOP first: the region sends STOP through the entity's
     *    mailbox to passivate it or to hand its shard over, so every message the region delivered
     *    before STOP is handled before the entity stops (as Pekko's handOffStopMessage), and the
     *    region sends it nothing after STOP;
     *  - every user message the handler runs (returning or throwing) increments `handled`, which
     *    the region reads to confirm deliveries to the members that sent them (Ledger).
     *
     * Invariant: `handled` only grows, by one per message the user's handlers ran; it is written
     * by the entity's turns and read by the region (an AtomicLong, no lock).
     */

    /** The stop marker; never crosses the wire. */
    static final Object STOP = new Object() {
        @Override
        public String toString() {
            return "sharding stop marker";
        }
    };

    final AtomicLong handled = new AtomicLong();

    /**
     * The factory of the entity's behavior, for spawnChild; each (re)start makes the user's
     * behavior afresh and wraps its context.
     */
    <M> Supplier<Behavior<M>> factory(Function<? super String, ? extends Behavior<M>> user, String entityId) {
        return () -> {
            Behavior<M> b = user.apply(entityId);
            if (b == null) {
                throw new IllegalStateException("sharding: the factory returned a null behavior for entity \"" + entityId + "\"");
            }
            return real -> b.start(new Ctx<>(real, this));
        };
    }

    /** A handler that matches STOP before the user's cases and counts the user messages it runs. */
    private static final class Wrapped<M, R> implements Receive<M, R> {
        private final Receive<? super M, R> user;
        private final ActorContext<?> real;
        private final AtomicLong handled;

        Wrapped(Receive<? super M, R> user, ActorContext<?> real, AtomicLong handled) {
            this.user = user;
            this.real = real;
            this.handled = handled;
        }

        @Override
        public boolean isDefinedAt(Channel<?> channel, Object message) {
            return message == STOP || user.isDefinedAt(channel, message);
        }

        @Override
        public R apply(Channel<?> channel, Object message) {
            if (message == STOP) {
                real.stop();
                return null;
            }
            try {
                return user.apply(channel, message);
            } finally {
                handled.incrementAndGet();
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public Object tryApply(Channel<?> channel, Object message) {
            if (message == STOP) {
                real.stop();
                return null;
            }
            boolean ran = true;
            try {
                Object r = ((Receive<Object, R>) (Receive<?, R>) user).tryApply(channel, message);
                ran = r != NO_MATCH;
                return r;
            } finally {
                if (ran) {
                    handled.incrementAndGet();
                }
            }
        }

        @Override
        public boolean hasTimeoutCase() {
            return user.hasTimeoutCase();
        }

        @Override
        public R onTimeout() {
            return user.onTimeout();
        }

        @Override
        @SuppressWarnings("unchecked")
        public Receive<M, R> orElse(Receive<? super M, ? extends R> other) {
            return new Wrapped<>(((Receive<M, R>) (Receive<?, R>) user).orElse(other), real, handled);
        }
    }

    /** The entity's context: the real one, with wrapped handlers. */
    private static final class Ctx<M> implements ActorContext<M> {
        private final ActorContext<M> real;
        private final EntityShell shell;

        Ctx(ActorContext<M> real, EntityShell shell) {
            this.real = real;
            this.shell = shell;
        }

        private <R> Receive<M, R> wrap(Receive<? super M, R> h) {
            return new Wrapped<>(h, real, shell.handled);
        }

        @Override
        public ActorRef<M> self() {
            return real.self();
        }

        @Override
        public ActorSystem system() {
            return real.system();
        }

        @Override
        public ActorRef<?> sender() {
            return real.sender();
        }

        @Override
        public void reply(Object message) {
            real.reply(message);
        }

        @Override
        public <T> void forward(Channel<T> target, T message) {
            real.forward(target, message);
        }

        @Override
        public void react(Receive<? super M, ?> handler) {
            real.react(wrap(handler));
        }

        @Override
        public void become(Receive<? super M, ?> handler) {
            real.become(wrap(handler));
        }

        @Override
        public <R> R receive(Receive<? super M, R> handler) {
            return real.receive(wrap(handler));
        }

        @Override
        public <R> R receiveWithin(Duration timeout, Receive<? super M, R> handler) {
            return real.receiveWithin(timeout, wrap(handler));
        }

        @Override
        public void loop(Runnable body) {
            real.loop(body);
        }

        @Override
        public void loopWhile(BooleanSupplier condition, Runnable body) {
            real.loopWhile(condition, body);
        }

        @Override
        public void andThen(Runnable first, Runnable next) {
            real.andThen(first, next);
        }

        @Override
        public void switchToThread(Runnable body) {
            real.switchToThread(body);
        }

        @Override
        public void moveTo(io.weft.actors.spi.Scheduler target) {
            real.moveTo(target);
        }

        @Override
        public <T> Channel<T> open(Class<T> type) {
            return real.open(type);
        }

        @Override
        public <T, R> CompletableFuture<R> ask(Channel<T> target, T message, Duration timeout) {
            return real.ask(target, message, timeout);
        }

        @Override
        public Timers<M> timers() {
            return real.timers();
        }

        @Override
        public <T, R> CompletableFuture<R> askWith(Channel<T> target, Function<ActorRef<R>, ? extends T> request, Duration timeout) {
            return real.askWith(target, request, timeout);
        }

        @Override
        public <T, R> void pipeTo(java.util.concurrent.CompletionStage<T> future, Channel<R> target,
                java.util.function.BiFunction<? super T, ? super Throwable, ? extends R> mapper) {
            real.pipeTo(future, target, mapper);
        }

        @Override
        public void unhandled(Unhandled policy) {
            real.unhandled(policy);
        }

        @Override
        public void watch(ActorRef<?> other) {
            real.watch(other);
        }

        @Override
        public void unwatch(ActorRef<?> other) {
            real.unwatch(other);
        }

        @Override
        public void link(ActorRef<?> other) {
            real.link(other);
        }

        @Override
        public void unlink(ActorRef<?> other) {
            real.unlink(other);
        }

        @Override
        public void trapExit(boolean trap) {
            real.trapExit(trap);
        }

        @Override
        public <C> ActorRef<C> spawnChild(Props props, Supplier<? extends Behavior<C>> factory) {
            return real.spawnChild(props, factory);
        }

        @Override
        public <C> ActorRef<C> spawnChildThread(Props props, Supplier<? extends Behavior<C>> factory) {
            return real.spawnChildThread(props, factory);
        }

        @Override
        public void stop() {
            real.stop();
        }

        @Override
        public void onStop(Runnable hook) {
            real.onStop(hook);
        }
    }
}
