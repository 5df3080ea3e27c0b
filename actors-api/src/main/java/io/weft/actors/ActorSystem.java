package io.weft.actors;

import io.weft.actors.spi.ActorSystemProvider;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A set of actors with one namespace, one id space, its schedulers and its threads.
 *
 * <pre>{@code
 * try (ActorSystem system = ActorSystem.create("demo")) {
 *     ActorRef<String> echo = system.spawn("echo", self ->
 *         self.loop(() -> self.react(Receive.<String>handler()
 *             .match(String.class, s -> self.reply(s))
 *             .build())));
 *     String answer = system.<String, String>ask(echo, "hi", Duration.ofSeconds(1)).join();
 * }
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>All methods are thread-safe.
 *   <li>{@code spawn} is asynchronous: it returns the ref at once and the body runs later on the
 *       actor's scheduler (except the piggyback scheduler, which runs it on the calling thread).
 *   <li>{@link #close()} stops every actor, waits for running handlers to return, sends what is left
 *       in mailboxes to dead letters, publishes every actor's {@link LifecycleEvent.Kind#STOPPED}
 *       and ends every thread the system started, all before it returns (the exceptions, a
 *       thread-based actor's thread that ignores its interrupt past the stop grace period and a
 *       close called on one of the system's own threads, are described at {@link #close()}). After it, {@code tell}
 *       still never throws (the message is a dead letter) and {@code spawn} throws
 *       {@link IllegalStateException}.
 * </ul>
 */
public interface ActorSystem extends AutoCloseable {

    /**
     * Creates a system with default settings.
     *
     * @param name the system's name
     * @return a running system
     */
    static ActorSystem create(String name) {
        return builder().name(name).build();
    }

    /**
     * Starts building a system.
     *
     * @return a builder with the defaults
     */
    static Builder builder() {
        return new Builder();
    }

    /** @return the system's name */
    String name();

    /** @return the settings the system was built with */
    Settings settings();

    /**
     * Spawns an event-based actor with default props.
     *
     * @param behavior its body
     * @param <M> its message type
     * @return its ref
     */
    default <M> ActorRef<M> spawn(Behavior<M> behavior) {
        return spawn(Props.defaults(), behavior);
    }

    /**
     * Spawns a named event-based actor.
     *
     * @param name the unique name
     * @param behavior its body
     * @param <M> its message type
     * @return its ref
     * @throws IllegalArgumentException if the name is taken
     */
    default <M> ActorRef<M> spawn(String name, Behavior<M> behavior) {
        return spawn(Props.named(name), behavior);
    }

    /**
     * Spawns an event-based actor: its body and handlers run on its scheduler's threads, and it waits
     * for messages with {@link ActorContext#react(Receive)}.
     *
     * @param props name, mailbox and scheduler
     * @param behavior its body
     * @param <M> its message type
     * @return its ref
     * @throws IllegalArgumentException if the name is taken
     * @throws IllegalStateException if the system is closed
     */
    <M> ActorRef<M> spawn(Props props, Behavior<M> behavior);

    /**
     * Spawns a thread-based actor on a virtual thread: its body is sequential code that blocks in
     * {@link ActorContext#receive(Receive)}. Needs {@code io.weft:actors-loom}.
     *
     * @param name the unique name, or null for a generated one
     * @param body its body
     * @param <M> its message type
     * @return its ref
     */
    default <M> ActorRef<M> spawnThread(String name, Behavior<M> body) {
        return spawnThread(Props.defaults().withName(name), body);
    }

    /**
     * Spawns a thread-based actor with the given props; a null scheduler means a virtual thread.
     *
     * @param props name, mailbox and scheduler (one that gives the actor its own thread)
     * @param body its body
     * @param <M> its message type
     * @return its ref
     * @throws UnsupportedOperationException if actors-loom is missing or the scheduler gives no
     *     thread of its own
     */
    <M> ActorRef<M> spawnThread(Props props, Behavior<M> body);

    /**
     * Spawns an event-based actor whose behavior comes from {@code factory}, once per (re)start: the
     * form a {@linkplain Props#withSupervisor(SupervisorStrategy) restarting} actor needs.
     *
     * @param props name, mailbox, scheduler and supervisor strategy
     * @param factory makes the behavior, once per start
     * @param <M> its message type
     * @return its ref
     */
    default <M> ActorRef<M> spawn(Props props, java.util.function.Supplier<? extends Behavior<M>> factory) {
        throw new UnsupportedOperationException("spawn with a behavior factory is not supported by " + getClass().getName());
    }

    /**
     * Spawns a thread-based actor whose body comes from {@code factory}, once per (re)start; each
     * restart runs on a new virtual thread.
     *
     * @param props name, mailbox, scheduler and supervisor strategy
     * @param factory makes the body, once per start
     * @param <M> its message type
     * @return its ref
     */
    default <M> ActorRef<M> spawnThread(Props props, java.util.function.Supplier<? extends Behavior<M>> factory) {
        throw new UnsupportedOperationException("spawnThread with a body factory is not supported by " + getClass().getName());
    }

    /**
     * Stops an actor from outside (Erlang's {@code exit(Pid, shutdown)}, Akka's {@code stop(ref)}):
     * it finishes the handler it is running, if any; an actor blocked in {@code receive} wakes with
     * {@link ActorStoppedException} so its {@code finally} blocks run; then its pending messages go
     * to dead letters and watchers are told. A thread-based actor whose own thread is blocked or
     * busy outside {@code receive} has that thread interrupted, once; if its body has not returned
     * after the {@linkplain Settings#stopGracePeriod() stop grace period}, the actor is ended from
     * outside as {@link #close()} describes (the thread keeps running, harmlessly). Idempotent; a
     * ref of another system or an ask ref is refused.
     *
     * @param ref the actor
     * @throws IllegalArgumentException if {@code ref} is not an actor of this system
     * @throws UnsupportedOperationException if this system does not support it
     */
    default void stop(ActorRef<?> ref) {
        throw new UnsupportedOperationException("stop(ref) is not supported by " + getClass().getName());
    }

    /**
     * Finds a live actor by name.
     *
     * @param name the name
     * @return its ref, or empty if no live actor has that name
     */
    Optional<ActorRef<Object>> lookup(String name);

    /**
     * Turns an {@link ActorRef#address()} back into a ref. The address of a stopped actor yields a
     * ref that delivers to dead letters.
     *
     * @param address the address
     * @return the ref
     * @throws IllegalArgumentException if the address is malformed or names another system
     */
    ActorRef<Object> resolve(String address);

    /**
     * Sends {@code message} to {@code target} with a temporary reply destination and returns the
     * reply (Haller and Odersky 2009's {@code !?}); the untyped form, for seed-style code where the
     * target answers with {@link ActorContext#reply(Object)}. The reply type is not checked: prefer
     * {@link #askWith(Channel, Function, Duration)}, whose reply type the compiler checks.
     *
     * @param target the recipient
     * @param message the request
     * @param timeout how long to wait, positive
     * @param <T> the target's message type
     * @param <R> the reply type
     * @return the reply future; fails with {@link AskTimeoutException} after {@code timeout}, and at
     *     once with {@link ActorStoppedException} naming the target if the target has stopped (or
     *     stops before it takes the request)
     * @throws IllegalArgumentException if the timeout is not positive
     */
    <T, R> CompletableFuture<R> ask(Channel<T> target, T message, Duration timeout);

    /**
     * Typed request-reply, as Pekko Typed's {@code ask}: {@code request} builds the message from a
     * temporary reply ref, and the reply type {@code R} is the type that ref accepts, so the
     * compiler checks it against the request's reply field:
     *
     * <pre>{@code
     * record Get(String key, ActorRef<Optional<String>> replyTo) implements KvCmd {}
     *
     * CompletableFuture<Optional<String>> value = system.askWith(kv, replyTo -> new Get("a", replyTo), timeout);
     * // CompletableFuture<Integer> wrong = system.askWith(kv, replyTo -> new Get("a", replyTo), timeout); // does not compile
     * }</pre>
     *
     * The target replies with {@code get.replyTo().tell(value)}, now or later, from any handler,
     * without a cast. {@code R} is inferred from the assignment; in a call chain without one, type
     * the lambda's parameter ({@code (ActorRef<Optional<String>> r) -> new Get("a", r)}). The name
     * differs from {@link #ask(Channel, Object, Duration)} because an overload taking a lambda
     * would be ambiguous with it.
     *
     * @param target the recipient
     * @param request builds the message from the reply destination
     * @param timeout how long to wait, positive
     * @param <T> the target's message type
     * @param <R> the reply type
     * @return the reply future; fails with {@link AskTimeoutException} after {@code timeout}, and at
     *     once with {@link ActorStoppedException} naming the target if the target has stopped
     * @throws IllegalArgumentException if the timeout is not positive
     */
    <T, R> CompletableFuture<R> askWith(Channel<T> target, Function<ActorRef<R>, ? extends T> request, Duration timeout);

    /** @return the dead-letter office */
    DeadLetters deadLetters();

    /**
     * The system's stream of user events: {@code publish} any object, actors {@code subscribe} by
     * class and are unsubscribed when they stop.
     *
     * @return the event stream
     * @throws UnsupportedOperationException if this system has none
     */
    default EventBus eventStream() {
        throw new UnsupportedOperationException("eventStream is not supported by " + getClass().getName());
    }

    /**
     * The named topic of this system, created on first use; see {@link Topic#of(ActorSystem, String, Class)}.
     *
     * @param name the topic's name, non-blank
     * @param type its message type, not null
     * @param <T> the message type
     * @return the topic
     * @throws IllegalArgumentException if the name is blank, or the topic exists with another type
     * @throws UnsupportedOperationException if this system has no topics
     */
    default <T> Topic<T> topic(String name, Class<T> type) {
        throw new UnsupportedOperationException("topics are not supported by " + getClass().getName());
    }

    /** @return the system-wide stream of actor lifecycle events */
    EventStream<LifecycleEvent> lifecycle();

    /** @return the built-in schedulers of this system */
    Schedulers schedulers();

    /**
     * Moves an event-based actor to another scheduler at run time (weak mobility, Karmani et al. 2009, §3.4).
     * The move happens at the end of the actor's current or next turn; an idle actor is activated
     * for it. No message is lost or reordered: messages sent meanwhile stay queued and are handled
     * on the new scheduler.
     *
     * @param actor an actor of this system
     * @param target the scheduler to run it on from now on; must not be a thread-per-actor one
     * @throws IllegalArgumentException if {@code actor} is not a live actor of this system, or
     *     {@code target} gives each actor its own thread
     */
    void move(ActorRef<?> actor, Scheduler target);

    /** @return how many actors are alive now */
    long actorCount();

    /** @return the system's live counters: actors, messages sent/handled/dead-lettered, mailbox depths */
    SystemMetrics metrics();

    /** @return whether {@link #close()} has been called */
    boolean isClosed();

    /**
     * The system's coordinated shutdown: add tasks to its phases; {@link #close()} runs it.
     *
     * @return the coordinated shutdown of this system
     * @throws UnsupportedOperationException if this system does not support it
     */
    default CoordinatedShutdown coordinatedShutdown() {
        throw new UnsupportedOperationException("coordinatedShutdown is not supported by " + getClass().getName());
    }

    /**
     * Stops all actors and all threads this system started. Idempotent: a second call waits until
     * the first has finished (unless made on one of the system's own threads, see below).
     *
     * <p>First it runs the {@linkplain #coordinatedShutdown() coordinated shutdown}: the tasks added
     * to its phases, in phase order, each phase bounded by its timeout, while the system still runs;
     * then, with {@link CoordinatedShutdown.PendingMail#DRAIN}, it lets the actors empty their
     * mailboxes until the drain deadline. With no task and the default
     * {@link CoordinatedShutdown.PendingMail#DEAD_LETTER}, this step does nothing and close is
     * exactly what the rest of this description says. Called on one of the system's own threads
     * with tasks or a drain configured, close runs all of it on a thread of its own and returns.
     *
     * <p>Every actor is asked to stop: a running react handler finishes; a thread-based actor
     * waiting in {@code receive} wakes with {@link ActorStoppedException}; a thread-based actor whose
     * own thread is blocked or busy anywhere else ({@code Thread.sleep}, a lock, a queue, I/O) has
     * that thread interrupted, once. Then its mailbox, opened channels and stash go to dead letters
     * ({@link DeadLetter.Reason#SYSTEM_CLOSED}), watchers get {@link Terminated} and
     * {@link LifecycleEvent.Kind#STOPPED} is published.
     *
     * <p>Every body waiting in {@code receive} is resumed to end: close never drops a parked body
     * unrun, so its {@code finally} blocks and its {@code onStop} hooks always run. A close of very
     * many parked bodies therefore takes as long as the threads (or carriers) need to run them
     * all: on 2 loaded cores tens of seconds for 1,000,000. So that these are not taken for
     * runaways, the stop grace period of a close counts from the last time an actor ended, as long
     * as actors keep ending, up to 20 s after the close began or 100 microseconds per actor alive
     * then, whichever is later.
     *
     * <p>A body that swallows the interrupt (or blocks uninterruptibly) and has not returned after
     * the {@linkplain Settings#stopGracePeriod() stop grace period} (default 5 s,
     * {@link Builder#stopGracePeriod(Duration)}) is ended from outside: its mail goes to dead
     * letters, its {@code onStop} hooks run on the closing thread, watchers are told, its name and
     * slot are freed ({@link #actorCount()} no longer counts it), and one warning for the close
     * gives the exact number of such actors, names the first three and shows where the first
     * one's thread was (each of the others is logged at DEBUG). That thread cannot be killed: close returns without waiting for it, and whatever
     * it does later is harmless (its {@code receive} throws {@link ActorStoppedException}; what it
     * sends to stopped actors is a dead letter). A thread adopted as an actor is not the system's
     * and is not interrupted: if it is still outside {@code receive} 100 ms into the close (or the
     * grace period, if shorter), its actor is ended from outside the same way.
     *
     * <p>Then the schedulers, the timer and every other platform thread the system started (pool
     * workers, watchdog, reanimation thread, dedicated actor threads, the closer) are ended and
     * joined before close returns. The virtual threads of thread-based actors are counted rather
     * than kept (a reference per actor would cost memory): close returns once each has left the
     * actor's code, and the JDK ends it right after. Every wait is bounded: a react handler still running after 30 s, or a thread still
     * alive after its bound (10 s per scheduler), is named in a warning and close goes on.
     *
     * <p>Called on one of the system's own threads (inside an actor, including a thread-based
     * actor's own thread, on a pool worker, the timer thread or the fair scheduler's thread), close
     * cannot wait there (the thread would wait for itself, or a worker for its own pool): it stops
     * the actors, returns at once, and a separate closer thread finishes closing once the caller has
     * returned to its scheduler; a later {@code close()} from another thread waits for that.
     */
    @Override
    void close();

    /**
     * The built-in schedulers (Prokopec 2016, §4), each a plain implementation of the {@link Scheduler}
     * SPI, for {@link Props#withScheduler(Scheduler)}.
     */
    interface Schedulers {
        /** @return the system's ForkJoinPool scheduler, the default for event-based actors */
        Scheduler forkJoin();

        /** @return a scheduler that gives each actor a dedicated platform thread */
        Scheduler dedicatedThread();

        /**
         * @return a scheduler that runs the actor on the thread that spawns it, which blocks in
         *     {@code spawn} until the actor stops
         */
        Scheduler piggyback();

        /**
         * @param period the time between runs, positive
         * @return a scheduler that runs the actor's pending messages every {@code period}
         */
        Scheduler timer(Duration period);

        /**
         * @return the scheduler giving each thread-based actor a virtual thread (needs actors-loom)
         * @throws UnsupportedOperationException without actors-loom
         */
        Scheduler virtualThread();

        /**
         * The bounded-delivery-time fair scheduler (Prokopec 2016, §4): messages are time-stamped on
         * enqueue and the actor holding the oldest message in the system runs next, so a flooded
         * actor gets more time and no message waits behind an unbounded number of later ones. One
         * thread; slower than {@link #forkJoin()}, for actors whose latency must stay bounded.
         *
         * @return the system's fair scheduler, created on first use
         */
        Scheduler fair();
    }

    /**
     * The settings of a system.
     *
     * @param name the system's name
     * @param parallelism the ForkJoinPool's parallelism
     * @param batchSize how many messages an event-based actor handles per turn before yielding
     *     (Prokopec 2016, §6.1)
     * @param messagePolicy how messages are passed (safe messaging, Karmani et al. 2009, §3.1)
     * @param messageCopier the copier of {@link MessagePolicy#COPY}, or null for the default
     *     (serialization)
     * @param tuning the ForkJoin scheduler's optimizations and blocking watchdog
     * @param stopGracePeriod how long {@link ActorSystem#close()} and {@link ActorSystem#stop(ActorRef)}
     *     wait for a thread-based actor's body to return after interrupting its thread, before they
     *     end the actor from outside (see {@link ActorSystem#close()}); positive
     * @param unhandled what actors whose {@link Props#unhandled()} is null do with messages their
     *     handler does not match; default {@link Unhandled#keep(int)} of
     *     {@link Unhandled#DEFAULT_MAX_KEPT}
     * @param logDeadLetters whether dead letters are logged at INFO (at most one line a second per
     *     system, with a count of the others); default true
     * @param ticker the time source of {@link Timers}; {@link Ticker#SYSTEM} by default, a manual
     *     one (the test kit's {@code ManualClock}) in tests
     * @param shutdown how {@link ActorSystem#close()} shuts down ({@link CoordinatedShutdown})
     */
    record Settings(String name, int parallelism, int batchSize, MessagePolicy messagePolicy, MessageCopier messageCopier,
            SchedulerTuning tuning, Duration stopGracePeriod, Unhandled unhandled, boolean logDeadLetters,
            Ticker ticker, CoordinatedShutdown.Settings shutdown) {

        /** The default {@link #unhandled()}: keep at most {@link Unhandled#DEFAULT_MAX_KEPT} messages. */
        public static final Unhandled DEFAULT_UNHANDLED = Unhandled.keep(Unhandled.DEFAULT_MAX_KEPT);

        /** The default {@link #stopGracePeriod()}: 5 seconds. */
        public static final Duration DEFAULT_STOP_GRACE_PERIOD = Duration.ofSeconds(5);

        /**
         * Settings with {@link MessagePolicy#BY_REFERENCE} and the default {@link SchedulerTuning}.
         *
         * @param name non-blank
         * @param parallelism at least 1
         * @param batchSize at least 1
         */
        public Settings(String name, int parallelism, int batchSize) {
            this(name, parallelism, batchSize, MessagePolicy.BY_REFERENCE, null);
        }

        /**
         * Settings with the default {@link SchedulerTuning}.
         *
         * @param name non-blank
         * @param parallelism at least 1
         * @param batchSize at least 1
         * @param messagePolicy not null
         * @param messageCopier any, or null for the default
         */
        public Settings(String name, int parallelism, int batchSize, MessagePolicy messagePolicy, MessageCopier messageCopier) {
            this(name, parallelism, batchSize, messagePolicy, messageCopier, SchedulerTuning.defaults());
        }

        /**
         * Settings with the default {@link #stopGracePeriod()}.
         *
         * @param name non-blank
         * @param parallelism at least 1
         * @param batchSize at least 1
         * @param messagePolicy not null
         * @param messageCopier any, or null for the default
         * @param tuning the ForkJoin scheduler's optimizations and blocking watchdog
         */
        public Settings(String name, int parallelism, int batchSize, MessagePolicy messagePolicy, MessageCopier messageCopier,
                SchedulerTuning tuning) {
            this(name, parallelism, batchSize, messagePolicy, messageCopier, tuning, DEFAULT_STOP_GRACE_PERIOD);
        }

        /**
         * Settings with the default {@link #unhandled()} and dead letters logged.
         *
         * @param name non-blank
         * @param parallelism at least 1
         * @param batchSize at least 1
         * @param messagePolicy not null
         * @param messageCopier any, or null for the default
         * @param tuning the ForkJoin scheduler's optimizations and blocking watchdog
         * @param stopGracePeriod positive
         */
        public Settings(String name, int parallelism, int batchSize, MessagePolicy messagePolicy, MessageCopier messageCopier,
                SchedulerTuning tuning, Duration stopGracePeriod) {
            this(name, parallelism, batchSize, messagePolicy, messageCopier, tuning, stopGracePeriod, DEFAULT_UNHANDLED, true);
        }

        /**
         * Settings with the system ticker and the default {@link CoordinatedShutdown.Settings}.
         *
         * @param name non-blank
         * @param parallelism at least 1
         * @param batchSize at least 1
         * @param messagePolicy not null
         * @param messageCopier any, or null for the default
         * @param tuning the ForkJoin scheduler's optimizations and blocking watchdog
         * @param stopGracePeriod positive
         * @param unhandled not null
         * @param logDeadLetters whether dead letters are logged
         */
        public Settings(String name, int parallelism, int batchSize, MessagePolicy messagePolicy, MessageCopier messageCopier,
                SchedulerTuning tuning, Duration stopGracePeriod, Unhandled unhandled, boolean logDeadLetters) {
            this(name, parallelism, batchSize, messagePolicy, messageCopier, tuning, stopGracePeriod, unhandled, logDeadLetters,
                    Ticker.SYSTEM, CoordinatedShutdown.Settings.defaults());
        }

        /**
         * Validates.
         *
         * @param name non-blank
         * @param parallelism at least 1
         * @param batchSize at least 1
         * @param messagePolicy not null
         * @param messageCopier any, or null for the default
         * @param tuning the ForkJoin scheduler's optimizations and blocking watchdog
         * @param stopGracePeriod positive
         * @param unhandled not null
         * @param logDeadLetters whether dead letters are logged
         * @param ticker not null
         * @param shutdown not null
         */
        public Settings {
            Objects.requireNonNull(ticker, "ticker");
            Objects.requireNonNull(shutdown, "shutdown");
            Objects.requireNonNull(unhandled, "unhandled");
            Objects.requireNonNull(messagePolicy, "messagePolicy");
            Objects.requireNonNull(tuning, "tuning");
            Objects.requireNonNull(stopGracePeriod, "stopGracePeriod");
            if (stopGracePeriod.isNegative() || stopGracePeriod.isZero()) {
                throw new IllegalArgumentException("stopGracePeriod: must be positive, was " + stopGracePeriod);
            }
            Objects.requireNonNull(name, "name");
            if (name.isBlank() || name.indexOf('/') >= 0 || name.indexOf('#') >= 0) {
                throw new IllegalArgumentException("name: must be non-blank without '/' or '#', was \"" + name + "\"");
            }
            if (parallelism < 1) {
                throw new IllegalArgumentException("parallelism: must be at least 1, was " + parallelism);
            }
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize: must be at least 1, was " + batchSize);
            }
        }
    }

    /** Builds an {@link ActorSystem}. Each setter validates its argument at once. */
    final class Builder {
        private String name = "weft";
        private int parallelism = Runtime.getRuntime().availableProcessors();
        private int batchSize = 50;
        // safe messaging (Karmani et al. 2009, §3.1)
        private MessagePolicy messagePolicy = MessagePolicy.BY_REFERENCE;
        private MessageCopier messageCopier;
        private SchedulerTuning tuning = SchedulerTuning.defaults();
        private Duration stopGracePeriod = Settings.DEFAULT_STOP_GRACE_PERIOD;
        private Ticker ticker = Ticker.SYSTEM;
        private CoordinatedShutdown.Settings shutdown = CoordinatedShutdown.Settings.defaults();
        private Unhandled unhandled = Settings.DEFAULT_UNHANDLED;
        private boolean logDeadLetters = true;

        Builder() {
        }

        /**
         * @param name the system's name
         * @return this builder
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * @param parallelism the ForkJoinPool's parallelism, at least 1; default: the number of CPUs
         * @return this builder
         * @throws IllegalArgumentException naming {@code parallelism} if less than 1
         */
        public Builder parallelism(int parallelism) {
            if (parallelism < 1) {
                throw new IllegalArgumentException("parallelism: must be at least 1, was " + parallelism);
            }
            this.parallelism = parallelism;
            return this;
        }

        /**
         * @param batchSize messages per actor turn, at least 1; default 50
         * @return this builder
         * @throws IllegalArgumentException naming {@code batchSize} if less than 1
         */
        public Builder batchSize(int batchSize) {
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize: must be at least 1, was " + batchSize);
            }
            this.batchSize = batchSize;
            return this;
        }

        /**
         * @param policy how messages are passed; default {@link MessagePolicy#BY_REFERENCE}
         * @return this builder
         */
        public Builder messagePolicy(MessagePolicy policy) {
            this.messagePolicy = Objects.requireNonNull(policy, "messagePolicy");
            return this;
        }

        /**
         * @param copier the deep copier used by {@link MessagePolicy#COPY}; default: serialization
         * @return this builder
         */
        public Builder messageCopier(MessageCopier copier) {
            this.messageCopier = Objects.requireNonNull(copier, "messageCopier");
            return this;
        }

        /**
         * @param tuning the ForkJoin scheduler's optimizations and blocking watchdog; default
         *     {@link SchedulerTuning#defaults()}
         * @return this builder
         */
        public Builder schedulerTuning(SchedulerTuning tuning) {
            this.tuning = Objects.requireNonNull(tuning, "tuning");
            return this;
        }

        /**
         * @param grace how long {@link ActorSystem#close()} and {@link ActorSystem#stop(ActorRef)} wait
         *     for a thread-based actor's body to return after interrupting its thread, before they end
         *     the actor from outside; positive; default {@link Settings#DEFAULT_STOP_GRACE_PERIOD} (5 s)
         * @return this builder
         * @throws IllegalArgumentException naming {@code stopGracePeriod} if not positive
         */
        public Builder stopGracePeriod(Duration grace) {
            Objects.requireNonNull(grace, "stopGracePeriod");
            if (grace.isNegative() || grace.isZero()) {
                throw new IllegalArgumentException("stopGracePeriod: must be positive, was " + grace);
            }
            this.stopGracePeriod = grace;
            return this;
        }

        /**
         * @param ticker the time source of {@link Timers}; default {@link Ticker#SYSTEM}. A manual
         *     ticker (the test kit's {@code ManualClock}) fires timers only when it is advanced.
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * The default bound of kept messages (selective receive) for actors whose
         * {@link Props#unhandled()} is null; see {@link Unhandled}.
         *
         * @param maxKept at least 1; default {@link Unhandled#DEFAULT_MAX_KEPT}
         * @return this builder
         * @throws IllegalArgumentException naming {@code maxKept} if less than 1
         */
        public Builder maxKept(int maxKept) {
            this.unhandled = Unhandled.keep(maxKept);
            return this;
        }

        /**
         * @param settings phase timeouts, pending mail (dead letters or drain) and the JVM shutdown
         *     hook; default {@link CoordinatedShutdown.Settings#defaults()}
         * @return this builder
         */
        public Builder coordinatedShutdown(CoordinatedShutdown.Settings settings) {
            this.shutdown = Objects.requireNonNull(settings, "coordinatedShutdown");
            return this;
        }

        /**
         * What actors whose {@link Props#unhandled()} is null do with messages their handler does
         * not match: keep them, up to a bound, or send them to dead letters (Pekko's behaviour).
         *
         * @param unhandled the policy; default {@link Settings#DEFAULT_UNHANDLED}
         * @return this builder
         */
        public Builder unhandled(Unhandled unhandled) {
            this.unhandled = Objects.requireNonNull(unhandled, "unhandled");
            return this;
        }

        /**
         * Whether dead letters are logged at INFO: the first of a quiet period at once, the rest
         * as one line a second with their count ("12 dead letters in the last second, first: ...").
         * They are counted and published to {@link ActorSystem#deadLetters()} either way.
         *
         * @param log false to log none; default true
         * @return this builder
         */
        public Builder logDeadLetters(boolean log) {
            this.logDeadLetters = log;
            return this;
        }

        /**
         * Builds and starts the system, using the first {@link ActorSystemProvider} found by
         * {@link ServiceLoader}.
         *
         * @return the system
         * @throws IllegalStateException if no implementation is on the class or module path
         */
        public ActorSystem build() {
            Settings settings = new Settings(name, parallelism, batchSize, messagePolicy, messageCopier, tuning, stopGracePeriod,
                    unhandled, logDeadLetters, ticker, shutdown);
            ActorSystemProvider provider = ServiceLoader.load(ActorSystemProvider.class, ActorSystem.class.getClassLoader())
                    .findFirst()
                    .or(() -> ServiceLoader.load(ActorSystemProvider.class).findFirst())
                    .orElseThrow(() -> new IllegalStateException(
                            "no Weft runtime found: add io.weft:actors-runtime to the class or module path"));
            return provider.create(settings);
        }
    }
}
