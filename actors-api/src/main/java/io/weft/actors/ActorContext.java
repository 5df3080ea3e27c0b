package io.weft.actors;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;

/**
 * What an actor can do to itself: wait for messages, answer them, open channels and stop.
 *
 * <p>An actor's context is handed to its {@link Behavior}; an {@link Actor} subclass reaches it with
 * {@link Actor#context()}. Any thread can get one with {@code io.weft.actors.loom.Actors.self()}.
 *
 * <h2>Threading</h2>
 * Only the actor itself may use its context: from its body, its handlers, or (thread-based actors)
 * its own thread. At most one handler of an actor runs at a time, so state read and written only by
 * the actor needs no synchronization; everything one handler did happens-before the next handler of
 * the same actor runs, whichever thread runs it.
 *
 * <p><b>Owner-only methods</b> throw {@link IllegalStateException}, naming the actor and the calling
 * thread, when called from any other thread (a future's callback, a thread the handler started, a
 * context kept after the handler returned): {@link #sender()}, {@link #reply(Object)},
 * {@link #forward(Channel, Object)}, {@link #react(Receive)}, {@link #become(Receive)},
 * {@link #receive(Receive)}, {@link #receiveWithin(Duration, Receive)}, {@link #loop(Runnable)},
 * {@link #loopWhile(BooleanSupplier, Runnable)}, {@link #andThen(Runnable, Runnable)},
 * {@link #switchToThread(Runnable)}, {@link #moveTo(io.weft.actors.spi.Scheduler)},
 * {@link #open(Class)}, {@link #watch(ActorRef)}, {@link #unwatch(ActorRef)},
 * {@link #link(ActorRef)}, {@link #unlink(ActorRef)}, {@link #trapExit(boolean)},
 * {@link #spawnChild(Props, java.util.function.Supplier)},
 * {@link #spawnChildThread(Props, java.util.function.Supplier)}, {@link #unhandled(Unhandled)},
 * {@link #onStop(Runnable)} and {@link #timers()} (with every method of {@link Timers}).
 * <b>Any thread</b> may call {@link #self()}, {@link #system()},
 * {@link #stop()}, {@link #ask(Channel, Object, Duration)},
 * {@link #askWith(Channel, java.util.function.Function, Duration)} and
 * {@link #pipeTo(CompletionStage, Channel, BiFunction)}. To act on an actor from elsewhere, send it a message
 * (capture {@link #self()}, not the context, in callbacks).
 *
 * <h2>Two ways to wait (Haller and Odersky 2009, §3.2)</h2>
 * <ul>
 *   <li>{@link #react(Receive)}: event-based. Registers the handler as the rest of the actor's
 *       computation and gives the thread back. In Java a method cannot be typed to never return, so
 *       {@code react} returns right away: make it the last thing the current body or handler does.
 *       Compose steps with {@link #loop(Runnable)}, {@link #loopWhile(BooleanSupplier, Runnable)}
 *       and {@link #andThen(Runnable, Runnable)} (Haller and Odersky 2009, §3.4).
 *   <li>{@link #receive(Receive)}: thread-based. Blocks the actor's own thread until a matching
 *       message arrives, keeping the whole call stack. Only allowed on an actor that owns a thread
 *       (spawned with {@link ActorSystem#spawnThread(String, Behavior)}, or any thread's
 *       {@code Actors.self()}); inside a react handler it throws {@link IllegalStateException}.
 * </ul>
 * Both use <b>selective receive</b>: the first message in mailbox order that the handler
 * {@linkplain Receive#isDefinedAt(Channel, Object) is defined at} is removed; the others stay, in
 * order, for later receives, up to a bound, or go to dead letters at once in Pekko's mode (see
 * {@link Unhandled}).
 *
 * @param <M> the type of messages on the actor's main channel
 */
public interface ActorContext<M> {

    /**
     * This actor's ref (its main channel).
     *
     * @return the ref, never null
     */
    ActorRef<M> self();

    /**
     * The system this actor lives in.
     *
     * @return the system
     */
    ActorSystem system();

    /**
     * The reply destination of the message being handled: the {@code replyTo} of
     * {@link Channel#tell(Object, ActorRef)}, or the waiting future of an {@code ask}. The steps that
     * run right after a handler returns ({@link #andThen}, {@link #loop}) still see that message's
     * sender, so {@code andThen(awaitPing, sendPong)} can reply to the ping (Haller and Odersky 2009, §3.4). In a
     * thread-based actor it stays the sender of the message last taken by {@code receive} after
     * {@code receive} returns, so sequential code can reply after it.
     *
     * @return the sender, or null if the current message carries none
     */
    ActorRef<?> sender();

    /**
     * Sends {@code message} to {@link #sender()}. If the current message carries no sender, the
     * reply goes to dead letters with {@link DeadLetter.Reason#NO_SENDER}, a warning naming the actor
     * is logged (at most once a second per system), and the actor goes on (as in Pekko).
     *
     * <p>To reply later, or from typed code without a cast, carry the reply destination in the
     * request ({@code record Get(String key, ActorRef<Optional<String>> replyTo)}), keep it, and
     * {@code tell} it; {@link #askWith(Channel, java.util.function.Function, Duration)} builds such
     * requests.
     *
     * @param message the reply, not null
     * @throws NullPointerException if {@code message} is null
     */
    void reply(Object message);

    /**
     * Sends {@code message} to {@code target}, keeping the current {@link #sender()} as its reply
     * destination.
     *
     * @param target the recipient
     * @param message the message
     * @param <T> the target's message type
     */
    <T> void forward(Channel<T> target, T message);

    /**
     * Registers {@code handler} as this actor's continuation and returns at once; the handler runs
     * on a pool worker when a matching message is first in mailbox order among the matching ones.
     * Call it last: code after it runs before the next message.
     *
     * <p>On a thread-based actor, {@code react} <em>detaches</em>: it never returns, the actor's thread
     * ends, and the actor goes on event-based with the same ref and mailbox; no message is lost or
     * reordered.
     *
     * @param handler the continuation, not null
     * @throws IllegalStateException if a continuation is already registered and has not run yet
     */
    void react(Receive<? super M, ?> handler);

    /**
     * Makes {@code handler} this actor's handler for every message from now on, until the next
     * {@code become}, a {@link #react(Receive)} inside it, or {@link #stop()}: the event-based
     * equivalent of {@code loop(() -> react(handler))}, without a step object per actor. Returns
     * at once; call it last. Messages it does not match stay in the mailbox, in order, and are
     * looked at again after each handled message (guards may depend on state).
     *
     * @param handler the handler, not null
     */
    void become(Receive<? super M, ?> handler);

    /**
     * Blocks this actor's own thread until a message matches {@code handler}, removes it, and returns
     * the handler's result.
     *
     * @param handler the cases, not null
     * @param <R> the result type
     * @return what the matching case returned
     * @throws IllegalStateException if this actor has no thread of its own (inside a react handler):
     *     use {@link #react(Receive)}, or {@link #switchToThread(Runnable)}
     * @throws ActorStoppedException if the actor is stopped while waiting
     */
    <R> R receive(Receive<? super M, R> handler);

    /**
     * Like {@link #receive(Receive)}, but waits at most {@code timeout}. If no message matched in time,
     * the handler's {@link Receive.Builder#onTimeout timeout case} runs; without one,
     * {@link ReceiveTimeoutException} is thrown. A zero timeout only looks at what is already there.
     *
     * @param timeout how long to wait, not negative
     * @param handler the cases, not null
     * @param <R> the result type
     * @return what the matching case, or the timeout case, returned
     * @throws ReceiveTimeoutException if nothing matched in time and there is no timeout case
     */
    <R> R receiveWithin(Duration timeout, Receive<? super M, R> handler);

    /**
     * Runs {@code body}, and each time the computation it started ends (the body returns with no
     * pending {@code react}, or the last handler it led to returns without calling {@code react}),
     * runs it again. Never ends by itself; stop the actor to end it.
     *
     * @param body the step to repeat, typically ending in {@code react}
     */
    void loop(Runnable body);

    /**
     * Like {@link #loop(Runnable)} while {@code condition} holds; when it is false before a round,
     * the loop ends and whatever was composed after it ({@link #andThen}) runs, or else the actor
     * stops.
     *
     * @param condition checked before each round
     * @param body the step to repeat
     */
    void loopWhile(BooleanSupplier condition, Runnable body);

    /**
     * Runs {@code first}, and when the computation it started has ended (including every
     * {@code react} continuation it led to), runs {@code next}.
     *
     * @param first the first step
     * @param next the step after it
     */
    void andThen(Runnable first, Runnable next);

    /**
     * Ends this event-based actor's current handler and continues it as a thread-based actor: once
     * the current handler returns, {@code body} runs on a new virtual thread and may call
     * {@link #receive(Receive)}. Same ref, same mailbox, nothing lost or reordered.
     *
     * @param body the blocking code to run next; when it returns (with no pending {@code react}),
     *     the actor stops
     */
    void switchToThread(Runnable body);

    /**
     * Moves this event-based actor to another scheduler (weak mobility, Karmani et al. 2009, §3.4): the current
     * handler ends the turn, and the next turn runs on {@code target}. Nothing queued is lost or
     * reordered.
     *
     * @param target the scheduler to continue on; must not be a thread-per-actor one
     * @throws IllegalArgumentException if {@code target} gives each actor its own thread (use
     *     {@link #switchToThread(Runnable)} for that)
     */
    void moveTo(io.weft.actors.spi.Scheduler target);

    /**
     * Opens a new typed channel of this actor with its own queue (Prokopec 2016, §2).
     *
     * @param type the type of messages the channel accepts
     * @param <T> that type
     * @return the channel's writing end; only this actor reads it
     */
    <T> Channel<T> open(Class<T> type);

    /**
     * Sends {@code message} to {@code target} and returns a future of the reply.
     *
     * @param target the recipient
     * @param message the request
     * @param timeout how long to wait, positive
     * @param <T> the target's message type
     * @param <R> the reply type
     * @return the reply future; fails with {@link AskTimeoutException} on timeout
     */
    default <T, R> CompletableFuture<R> ask(Channel<T> target, T message, Duration timeout) {
        return system().ask(target, message, timeout);
    }

    /**
     * This actor's timers: messages it sends to itself later, once or periodically, by key
     * ({@link Timers}). Owner-only, like the methods of the returned object.
     *
     * @return the timers of this actor
     * @throws IllegalStateException if called from a thread not running this actor
     * @throws UnsupportedOperationException if this context does not support timers
     */
    default Timers<M> timers() {
        throw new UnsupportedOperationException("timers are not supported by " + getClass().getName());
    }

    /**
     * Typed request-reply (Pekko Typed's {@code ask}); see
     * {@link ActorSystem#askWith(Channel, java.util.function.Function, Duration)}. The future
     * completes on another thread: bring its result back into this actor with
     * {@link #pipeTo(CompletionStage, Channel, BiFunction)}, not by touching actor state in a
     * callback.
     *
     * @param target the recipient
     * @param request builds the message from the temporary reply ref
     * @param timeout how long to wait, positive
     * @param <T> the target's message type
     * @param <R> the reply type, the type the reply ref accepts
     * @return the reply future
     */
    default <T, R> CompletableFuture<R> askWith(Channel<T> target, java.util.function.Function<ActorRef<R>, ? extends T> request,
            Duration timeout) {
        return system().askWith(target, request, timeout);
    }

    /**
     * When {@code future} completes, sends {@code mapper(result, null)} or
     * {@code mapper(null, failure)} to {@code target} (Pekko's {@code pipeToSelf} and
     * {@code pipe}); the usual way to bring an asynchronous result into an actor. Any thread may
     * call it; the message is sent from the thread that completes the future (at once if it is
     * done). A {@link java.util.concurrent.CompletionException} is unwrapped to its cause. If the
     * mapper throws or returns null, nothing is sent and the problem goes to that thread's uncaught
     * exception handler.
     *
     * <pre>{@code
     * ctx.pipeTo(repository.load(id), ctx.self(), (row, failure) ->
     *     failure == null ? new Loaded(row) : new LoadFailed(id, failure));
     * }</pre>
     *
     * @param future the result to wait for
     * @param target where to send the mapped result
     * @param mapper turns the result or the failure into a message
     * @param <T> the result type
     * @param <R> the target's message type
     */
    default <T, R> void pipeTo(CompletionStage<T> future, Channel<R> target,
            BiFunction<? super T, ? super Throwable, ? extends R> mapper) {
        java.util.Objects.requireNonNull(future, "future");
        java.util.Objects.requireNonNull(target, "target");
        java.util.Objects.requireNonNull(mapper, "mapper");
        future.whenComplete((value, failure) -> {
            Throwable cause = failure instanceof java.util.concurrent.CompletionException c && c.getCause() != null ? c.getCause() : failure;
            try {
                R message = mapper.apply(cause == null ? value : null, cause);
                target.tell(java.util.Objects.requireNonNull(message, "pipeTo mapper returned null"));
            } catch (RuntimeException | Error e) {
                Thread t = Thread.currentThread();
                t.getUncaughtExceptionHandler().uncaughtException(t, e);
            }
        });
    }

    /**
     * Changes what this actor does with messages its handler does not match, from now on (the
     * initial policy is {@link Props#unhandled()} or the system's default). Switching to
     * {@link Unhandled.Mode#DEAD_LETTER}, or to a smaller bound, sends the messages kept beyond it to
     * dead letters ({@link DeadLetter.Reason#UNHANDLED}), oldest first. Owner only.
     *
     * @param policy the policy
     * @throws UnsupportedOperationException if this context does not support it
     */
    default void unhandled(Unhandled policy) {
        throw new UnsupportedOperationException("unhandled(policy) is not supported by " + getClass().getName());
    }

    // ---- failure handling (watch, links, supervision): Karmani et al. 2009, §3, Erlang/OTP

    /**
     * Watches {@code other}: when it stops, normally or by failure, this actor receives
     * {@link Terminated}{@code (other, cause)} on its main channel, once. Watching an actor that has
     * already stopped delivers it at once (each time, as an Erlang monitor does). Watching a live
     * actor again, before it stops, has no further effect: it sends one {@link Terminated}.
     *
     * @param other the actor to watch
     * @throws UnsupportedOperationException if this context does not support watching
     */
    default void watch(ActorRef<?> other) {
        throw new UnsupportedOperationException("watch is not supported by " + getClass().getName());
    }

    /**
     * Stops watching {@code other}; a {@link Terminated} already sent is not taken back.
     *
     * @param other the watched actor
     */
    default void unwatch(ActorRef<?> other) {
        throw new UnsupportedOperationException("unwatch is not supported by " + getClass().getName());
    }

    /**
     * Links this actor with {@code other}, both ways (Erlang's {@code link}): when either stops with a
     * failure, the other fails with {@link LinkedActorFailedException}, unless it
     * {@linkplain #trapExit(boolean) traps exits}, in which case it receives an {@link Exit} message.
     * A normal stop is sent as {@link Exit} to a partner trapping exits and ignored by others.
     * Linking to an actor already stopped acts as if it had just stopped.
     *
     * @param other the partner
     */
    default void link(ActorRef<?> other) {
        throw new UnsupportedOperationException("link is not supported by " + getClass().getName());
    }

    /**
     * Removes a link, both ways.
     *
     * @param other the partner
     */
    default void unlink(ActorRef<?> other) {
        throw new UnsupportedOperationException("unlink is not supported by " + getClass().getName());
    }

    /**
     * Whether a linked actor's stop arrives as an {@link Exit} message (true) or fails this actor
     * when it was a failure (false, the default).
     *
     * @param trap the new setting
     */
    default void trapExit(boolean trap) {
        throw new UnsupportedOperationException("trapExit is not supported by " + getClass().getName());
    }

    /**
     * Spawns an event-based child of this actor. Each (re)start of the child runs a fresh behavior
     * from {@code factory}; {@code props}' {@linkplain Props#withSupervisor supervisor strategy}
     * decides what a failure does, and {@code ESCALATE} fails this actor with the child's failure.
     * Children are stopped when their parent stops or restarts.
     *
     * @param props name, mailbox, scheduler and supervisor strategy
     * @param factory makes the child's behavior, once per start
     * @param <C> the child's message type
     * @return the child's ref
     */
    default <C> ActorRef<C> spawnChild(Props props, java.util.function.Supplier<? extends Behavior<C>> factory) {
        throw new UnsupportedOperationException("spawnChild is not supported by " + getClass().getName());
    }

    /**
     * Like {@link #spawnChild(Props, java.util.function.Supplier)} for a thread-based child: each
     * (re)start runs the body on a new virtual thread.
     *
     * @param props name, mailbox, scheduler and supervisor strategy
     * @param factory makes the child's body, once per start
     * @param <C> the child's message type
     * @return the child's ref
     */
    default <C> ActorRef<C> spawnChildThread(Props props, java.util.function.Supplier<? extends Behavior<C>> factory) {
        throw new UnsupportedOperationException("spawnChildThread is not supported by " + getClass().getName());
    }

    /**
     * Stops this actor once the current handler returns: no further message is handled, pending ones
     * go to dead letters (counted), watchers get {@link Terminated} with a null cause, and
     * {@link LifecycleEvent.Kind#STOPPED} is published. Idempotent. Any thread may call it; from
     * outside the actor it acts as {@link ActorSystem#stop(ActorRef)} on {@link #self()}.
     */
    void stop();

    /**
     * Registers {@code hook} to run once when this actor stops, however it stops (its body or
     * computation ends, {@link #stop()}, {@link ActorSystem#stop(ActorRef)}, a failure, or
     * {@link ActorSystem#close()}), and also when a supervisor restarts it (the next incarnation
     * registers its own). Hooks run on the actor's own thread, last registered first, before
     * pending messages go to dead letters and before {@link LifecycleEvent.Kind#STOPPED} is
     * published; what a hook sends to this actor is a dead letter. A hook that throws is logged
     * and the others still run.
     *
     * @param hook the cleanup, not null
     * @throws UnsupportedOperationException if this context does not support stop hooks
     */
    default void onStop(Runnable hook) {
        throw new UnsupportedOperationException("onStop is not supported by " + getClass().getName());
    }
}
