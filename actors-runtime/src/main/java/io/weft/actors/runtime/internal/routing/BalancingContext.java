package io.weft.actors.runtime.internal.routing;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Channel;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Unhandled;
import io.weft.actors.spi.Scheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The context a balancing pool's routee runs its behavior with: the routee's own context, whose
 * handlers ({@code react}, {@code become}, {@code receive}) are wrapped so that a message from the
 * router ({@link Routee.Routed}) reaches the user's cases unwrapped and, once taken, is answered
 * with {@link Routee.Ready} to the router.
 *
 * @param <M> the routee's message type
 */
final class BalancingContext<M> implements ActorContext<M> {
    /* design
     * Every other method delegates to the routee's context unchanged, so the routee is a
     * normal actor (its self, its supervision, its children). Ready is told once the
     * user's case has run, whether it returned or threw: a failed message is done with too (the
     * supervisor drops it), so the router never waits for a routee that will not ask again. A routed
     * message no case matches stays in the routee's mailbox, as selective receive keeps any message;
     * the router counts that routee busy until a later handler takes it. Messages sent to the routee
     * directly (not through the router) pass through untouched and are not answered.
     */

    private final ActorContext<M> delegate;
    private final ActorRef<Object> router;
    private final Routee.Ready ready;

    BalancingContext(ActorContext<M> delegate, ActorRef<Object> router) {
        this.delegate = delegate;
        this.router = router;
        this.ready = new Routee.Ready(delegate.self());
    }

    private <R> Receive<M, R> wrap(Receive<? super M, R> handler) {
        return handler == null ? null : new Wrapped<>(handler);
    }

    /** A handler that unwraps the router's messages and tells it when one was taken. */
    private final class Wrapped<R> implements Receive<M, R> {
        private final Receive<? super M, R> inner;

        Wrapped(Receive<? super M, R> inner) {
            this.inner = inner;
        }

        @Override
        public boolean isDefinedAt(Channel<?> channel, Object message) {
            return inner.isDefinedAt(channel, channel == null && message instanceof Routee.Routed r ? r.message() : message);
        }

        @Override
        public R apply(Channel<?> channel, Object message) {
            if (channel == null && message instanceof Routee.Routed r) {
                try {
                    return inner.apply(null, r.message());
                } finally {
                    router.tell(ready);
                }
            }
            return inner.apply(channel, message);
        }

        @Override
        public Object tryApply(Channel<?> channel, Object message) {
            if (channel == null && message instanceof Routee.Routed r) {
                boolean taken = false;
                try {
                    Object result = inner.tryApply(null, r.message());
                    taken = result != NO_MATCH;
                    return result;
                } catch (RuntimeException | Error e) {
                    taken = true;
                    throw e;
                } finally {
                    if (taken) {
                        router.tell(ready);
                    }
                }
            }
            return inner.tryApply(channel, message);
        }

        @Override
        public boolean matchesOnlyWhere(Receive<?, ?> other) {
            // both unwrap the router's messages alike, so the inner handlers decide
            return other instanceof BalancingContext<?>.Wrapped<?> w && inner.matchesOnlyWhere(w.inner);
        }

        @Override
        public boolean hasTimeoutCase() {
            return inner.hasTimeoutCase();
        }

        @Override
        public R onTimeout() {
            return inner.onTimeout();
        }

        @Override
        @SuppressWarnings("unchecked")
        public Receive<M, R> orElse(Receive<? super M, ? extends R> other) {
            return new Wrapped<>((Receive<? super M, R>) (Receive<?, ?>) ((Receive<M, R>) inner).orElse(other));
        }
    }

    @Override
    public ActorRef<M> self() {
        return delegate.self();
    }

    @Override
    public ActorSystem system() {
        return delegate.system();
    }

    @Override
    public ActorRef<?> sender() {
        return delegate.sender();
    }

    @Override
    public void reply(Object message) {
        delegate.reply(message);
    }

    @Override
    public <T> void forward(Channel<T> target, T message) {
        delegate.forward(target, message);
    }

    @Override
    public void react(Receive<? super M, ?> handler) {
        delegate.react(wrap(handler));
    }

    @Override
    public void become(Receive<? super M, ?> handler) {
        delegate.become(wrap(handler));
    }

    @Override
    public <R> R receive(Receive<? super M, R> handler) {
        return delegate.receive(wrap(handler));
    }

    @Override
    public <R> R receiveWithin(Duration timeout, Receive<? super M, R> handler) {
        return delegate.receiveWithin(timeout, wrap(handler));
    }

    @Override
    public void loop(Runnable body) {
        delegate.loop(body);
    }

    @Override
    public void loopWhile(BooleanSupplier condition, Runnable body) {
        delegate.loopWhile(condition, body);
    }

    @Override
    public void andThen(Runnable first, Runnable next) {
        delegate.andThen(first, next);
    }

    @Override
    public void switchToThread(Runnable body) {
        delegate.switchToThread(body);
    }

    @Override
    public void moveTo(Scheduler target) {
        delegate.moveTo(target);
    }

    @Override
    public <T> Channel<T> open(Class<T> type) {
        return delegate.open(type);
    }

    @Override
    public <T, R> CompletableFuture<R> ask(Channel<T> target, T message, Duration timeout) {
        return delegate.ask(target, message, timeout);
    }

    @Override
    public io.weft.actors.Timers<M> timers() {
        return delegate.timers();
    }

    @Override
    public <T, R> CompletableFuture<R> askWith(Channel<T> target, Function<ActorRef<R>, ? extends T> request, Duration timeout) {
        return delegate.askWith(target, request, timeout);
    }

    @Override
    public <T, R> void pipeTo(CompletionStage<T> future, Channel<R> target, BiFunction<? super T, ? super Throwable, ? extends R> mapper) {
        delegate.pipeTo(future, target, mapper);
    }

    @Override
    public void unhandled(Unhandled policy) {
        delegate.unhandled(policy);
    }

    @Override
    public void watch(ActorRef<?> other) {
        delegate.watch(other);
    }

    @Override
    public void unwatch(ActorRef<?> other) {
        delegate.unwatch(other);
    }

    @Override
    public void link(ActorRef<?> other) {
        delegate.link(other);
    }

    @Override
    public void unlink(ActorRef<?> other) {
        delegate.unlink(other);
    }

    @Override
    public void trapExit(boolean trap) {
        delegate.trapExit(trap);
    }

    @Override
    public <C> ActorRef<C> spawnChild(Props props, Supplier<? extends Behavior<C>> factory) {
        return delegate.spawnChild(props, factory);
    }

    @Override
    public <C> ActorRef<C> spawnChildThread(Props props, Supplier<? extends Behavior<C>> factory) {
        return delegate.spawnChildThread(props, factory);
    }

    @Override
    public void stop() {
        delegate.stop();
    }

    @Override
    public void onStop(Runnable hook) {
        delegate.onStop(hook);
    }
}
