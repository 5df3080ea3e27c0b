package io.weft.actors.runtime.internal.system;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.AskTimeoutException;
import io.weft.actors.Behavior;
import io.weft.actors.Channel;
import io.weft.actors.DeadLetter;
import io.weft.actors.DeadLetters;
import io.weft.actors.EventStream;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Mailbox;
import io.weft.actors.Props;
import io.weft.actors.SupervisorStrategy;
import io.weft.actors.spi.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.weft.actors.runtime.internal.telemetry.Telemetry;
import io.weft.actors.runtime.internal.telemetry.Listeners;
import io.weft.actors.runtime.internal.telemetry.DeadLetterOffice;
import io.weft.actors.runtime.internal.schedule.ForkJoinScheduler;
import io.weft.actors.runtime.internal.cell.Cell;
import io.weft.actors.runtime.internal.cell.CurrentActor;
import io.weft.actors.runtime.internal.schedule.MessageCounters;
import io.weft.actors.runtime.internal.cell.LocalRef;
import io.weft.actors.runtime.internal.supervision.Supervision;
import io.weft.actors.runtime.internal.supervision.Deathwatch;
import io.weft.actors.runtime.internal.pubsub.PubSubHost;

/**
 * The {@link ActorSystem} implementation: namespace, id space, schedulers, dead letters and
 * shutdown.
 */
public final class WeftSystem extends PubSubHost {

    /* design
     * Registration: an actor is in `table` (by id) from spawn until it terminates, and in `names`
     * if it was given a name. Ids come from one counter and are never reused; ask refs take negative
     * ids from another, so they never occupy table slots.
     *
     * Close: set `closed` (spawn now fails, sends to stopped actors say SYSTEM_CLOSED), ask every
     * actor to stop (each finishes its current handler, then drains its queues to dead letters; a
     * thread-based actor's own thread that holds its frame outside receive is interrupted, once),
     * wait until the table is empty, then shut the schedulers and the timer down and join every
     * thread the system started. The waits are bounded: a thread-based actor (or an adopted thread's
     * actor) whose thread has not returned after the stop grace period (which at close counts from
     * the last actor that ended, up to a cap: SystemClose's design block; after at most
     * ADOPTED_WAKE_NANOS for an adopted thread, which is not interrupted) is ended from outside (Cell.endFromOutside, a warning names
     * actor and thread; that thread is not waited for); a react handler still running after
     * CLOSE_WAIT is warned about and left; a thread that does not end within its scheduler's bound
     * is named in a warning. Called on one of the system's own threads (inside an actor, on a pool
     * worker, the timer thread, the fair scheduler's thread, the closer, or the thread running
     * finishClose, whose onStop hooks may call close), close does not wait (that thread would wait
     * for itself): a separate closer thread does the waiting, and a second close() from elsewhere
     * waits for it and joins it.
     *
     * Adopted threads (any thread as an actor, Haller and Odersky 2009, §2): their cells are also kept in `adopted`.
     * A periodic sweep on the timer thread finishes every adopted cell whose thread has ended
     * (Thread.isAlive() == false gives happens-before with everything the thread did), so its mail
     * goes to dead letters and its table slot is freed. Close finishes the caller's own adopted cell
     * and the cells of ended threads at once; a live adopted thread woken in receive finishes its
     * cell itself (ActorStoppedException); one still busy elsewhere after ADOPTED_WAKE_NANOS has its
     * cell ended from outside (Cell.endFromOutside). While the system runs, a live adopted thread
     * finishes its cell in its next receive after a stop, on Actors.release(), or when the sweep
     * sees it end.
     */

    private static final Logger LOG = LoggerFactory.getLogger(WeftSystem.class);

    final Settings settings;
    final ForkJoinScheduler forkJoin;
    final ActorTable table = new ActorTable();
    private final ConcurrentHashMap<String, LocalRef<?>> names = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong askIds = new AtomicLong();
    private final DeadLetterOffice deadLetters;
    private final ActorWarnings warnings;
    private final Listeners<LifecycleEvent> lifecycle = Telemetry.lifecycleListeners();
    private final Metrics metrics = new Metrics(this);
    /** The hot counters, read by every send and every handled message (metrics.counters()). */
    private final MessageCounters counters = metrics.counters();
    final AtomicBoolean closed = new AtomicBoolean();
    final Set<Cell<?>> adopted = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean sweeping = new AtomicBoolean();
    final List<Scheduler> ownedSchedulers = new CopyOnWriteArrayList<>();
    final ReentrantLock initLock = new ReentrantLock();
    volatile ScheduledThreadPoolExecutor timer;
    /** The timer's threads (one at a time; a new one if a task killed the last), joined at close. */
    final List<Thread> timerThreads = new CopyOnWriteArrayList<>();
    private final BuiltinSchedulers schedulers;
    // actor semantics: death watch, links, children (Deathwatch); safe messaging (MessageGuard)
    private final Deathwatch deathwatch = new Deathwatch(this);
    private final MessageGuard messageGuard;
    /** Close: stops the actors, ends the threads (SystemClose). */
    private final SystemClose shutdown = new SystemClose(this);
    private final ShutdownPhases coordinated; // the phases close() runs before SystemClose (CoordinatedShutdown)

    WeftSystem(Settings settings) {
        super(io.weft.actors.runtime.internal.schedule.TimerWheel.withDefaultTick(settings.ticker(), "weft-" + settings.name() + "-timers"));
        this.settings = settings;
        this.deadLetters = new DeadLetterOffice(settings.logDeadLetters());
        this.warnings = new ActorWarnings(settings.name());
        deadLetters.onWindowOpened(this::scheduleDeadLetterTick);
        this.forkJoin = new ForkJoinScheduler("weft-" + settings.name() + "-worker", settings.parallelism(), settings.batchSize(),
                metrics.counters(), settings.tuning());
        ownedSchedulers.add(forkJoin);
        this.schedulers = new BuiltinSchedulers(this, forkJoin, settings, ownedSchedulers, initLock);
        this.messageGuard = MessageGuard.of(settings.messagePolicy(), settings.messageCopier());
        this.coordinated = new ShutdownPhases(this, settings.shutdown(), shutdown);
    }

    // ------------------------------------------------------------------ current actor

    /** @return the actor whose handler or thread is running on this thread, or null */
    public static Cell<?> current() {
        return CurrentActor.current();
    }

    // ------------------------------------------------------------------ accessors

    @Override
    public String name() {
        return settings.name();
    }

    @Override
    public Settings settings() {
        return settings;
    }

    public DeadLetterOffice deadLetterOffice() {
        return deadLetters;
    }

    /** A dead-letter logging window opened: its count is logged a second later, if no dead letter does it first. */
    private void scheduleDeadLetterTick() {
        if (closed.get()) {
            return; // close flushes the window
        }
        try {
            timer().schedule(deadLetters::tick, DeadLetterOffice.WINDOW_NANOS + 1_000_000, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // close flushes the window
        }
    }

    @Override
    public void keptChanged(int delta) {
        metrics.keptChanged(delta);
    }

    @Override
    public void warn(String message) {
        warnings.warn(message);
    }

    @Override
    public void warnRateLimited(Supplier<String> message) {
        warnings.warnRateLimited(message);
    }

    /** @param listener receives every warning about an actor that is logged (tests), or null */
    public void warningListener(java.util.function.Consumer<String> listener) {
        warnings.listener(listener);
    }

    /**
     * Publishes a message that a non-actor part of the runtime (a stream stage) dropped.
     *
     * @param message the dropped message
     * @param recipient who it was for
     * @param reason why
     */
    public void deadLetter(Object message, ActorRef<?> recipient, DeadLetter.Reason reason) {
        deadLetters.publish(message, recipient, null, reason);
    }

    public Listeners<LifecycleEvent> lifecycleStream() {
        return lifecycle;
    }

    @Override
    public Metrics metrics() {
        return metrics;
    }

    @Override
    public MessageCounters counters() {
        return counters;
    }

    @Override
    public void watch(Cell<?> watcher, ActorRef<?> target) {
        deathwatch.watch(watcher, target);
    }

    @Override
    public void unwatch(Cell<?> watcher, ActorRef<?> target) {
        deathwatch.unwatch(watcher, target);
    }

    @Override
    public void link(Cell<?> self, ActorRef<?> other) {
        deathwatch.link(self, other);
    }

    @Override
    public void unlink(Cell<?> self, ActorRef<?> other) {
        deathwatch.unlink(self, other);
    }

    @Override
    public void trapExit(Cell<?> self, boolean trap) {
        deathwatch.trapExit(self, trap);
    }

    @Override
    public void terminated(Cell<?> cell, Throwable cause) {
        deathwatch.terminated(cell, cause);
    }

    @Override
    public void stopChildren(Cell<?> parent) {
        deathwatch.stopChildren(parent);
    }

    /**
     * Applies the system's message policy to a message being sent on an actor's channel.
     *
     * @return the message to enqueue (the same, or a copy)
     */
    public Object checkMessage(Object message) {
        MessageGuard g = messageGuard;
        return g == null || message == null ? message : g.apply(message);
    }

    public Scheduler defaultScheduler() {
        return forkJoin;
    }

    public ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor t = timer;
        if (t == null) {
            initLock.lock(); // only on first use; never on a message path
            try {
                t = timer;
                if (t == null) {
                    if (closed.get()) {
                        // finishClose reads `timer` under this lock: one made now would never be shut down
                        throw new java.util.concurrent.RejectedExecutionException("actor system \"" + name() + "\" is closed");
                    }
                    t = new ScheduledThreadPoolExecutor(1, r -> {
                        Thread th = new Thread(r, "weft-" + settings.name() + "-timer");
                        th.setDaemon(true);
                        timerThreads.removeIf(old -> !old.isAlive());
                        timerThreads.add(th);
                        return th;
                    });
                    t.setRemoveOnCancelPolicy(true);
                    timer = t;
                }
            } finally {
                initLock.unlock();
            }
        }
        return t;
    }

    @Override
    public Scheduler threadScheduler() {
        return schedulers.virtualThread();
    }

    // ------------------------------------------------------------------ spawning

    @Override
    public <M> ActorRef<M> spawn(Props props, Behavior<M> behavior) {
        Objects.requireNonNull(props, "props");
        Objects.requireNonNull(behavior, "behavior");
        Scheduler s = props.scheduler() != null ? props.scheduler() : forkJoin;
        return spawnCell(props, behavior, s, false);
    }

    @Override
    public <M> ActorRef<M> spawnThread(Props props, Behavior<M> body) {
        Objects.requireNonNull(props, "props");
        Objects.requireNonNull(body, "body");
        Scheduler s = props.scheduler() != null ? props.scheduler() : threadScheduler();
        if (!s.ownsThread()) {
            throw new UnsupportedOperationException("scheduler " + s.name()
                    + " does not give each actor its own thread, so a thread-based actor cannot block on it;"
                    + " use the virtual-thread or dedicated-thread scheduler");
        }
        return spawnCell(props, body, s, true);
    }

    @Override
    public <M> ActorRef<M> spawn(Props props, Supplier<? extends Behavior<M>> factory) {
        return spawnSupervised(null, props, factory, false);
    }

    @Override
    public <M> ActorRef<M> spawnThread(Props props, Supplier<? extends Behavior<M>> factory) {
        return spawnSupervised(null, props, factory, true);
    }

    /** Spawns an actor from a behavior factory, as a child of {@code parent} if not null. */
    public <M> ActorRef<M> spawnSupervised(Cell<?> parent, Props props, Supplier<? extends Behavior<M>> factory, boolean threadMode) {
        Objects.requireNonNull(props, "props");
        Objects.requireNonNull(factory, "factory");
        Behavior<M> first = Objects.requireNonNull(factory.get(), "factory: returned a null behavior");
        Scheduler s;
        if (threadMode) {
            s = props.scheduler() != null ? props.scheduler() : threadScheduler();
            if (!s.ownsThread()) {
                throw new UnsupportedOperationException("scheduler " + s.name()
                        + " does not give each actor its own thread, so a thread-based actor cannot block on it;"
                        + " use the virtual-thread or dedicated-thread scheduler");
            }
        } else {
            s = props.scheduler() != null ? props.scheduler() : forkJoin;
        }
        return spawnCell(props, first, s, threadMode, parent, factory);
    }

    private <M> ActorRef<M> spawnCell(Props props, Behavior<M> behavior, Scheduler scheduler, boolean threadMode) {
        return spawnCell(props, behavior, scheduler, threadMode, null, null);
    }

    private <M> ActorRef<M> spawnCell(Props props, Behavior<M> behavior, Scheduler scheduler, boolean threadMode,
            Cell<?> parent, Supplier<? extends Behavior<M>> factory) {
        checkOpen("spawn");
        SupervisorStrategy strategy = props.supervisor();
        if (strategy != null && factory == null && strategy.mayRestart()) {
            throw new IllegalArgumentException("props.supervisor: " + strategy + " may restart the actor, which needs a behavior factory;"
                    + " spawn it with spawn(props, () -> behavior) or spawnThread(props, () -> body)");
        }
        long id = ids.incrementAndGet();
        Cell<M> cell = new Cell<>(id, this, props.name(), props.mailbox(), scheduler, behavior, threadMode);
        if (props.unhandled() != null) {
            cell.initUnhandled(props.unhandled());
        }
        if (props.name() != null) {
            LocalRef<?> other = names.putIfAbsent(props.name(), cell.localRef());
            if (other != null) {
                table.remove(id);
                throw new IllegalArgumentException("actor name \"" + props.name() + "\" is already taken by " + other
                        + " in system " + name());
            }
        }
        table.put(cell);
        try {
            scheduler.initSchedule(cell);
        } catch (RuntimeException e) {
            unregister(cell); // e.g. the timer scheduler while the system closes
            throw e;
        }
        if (cell.schedulerState() == null) {
            unregister(cell);
            throw new IllegalStateException("scheduler " + scheduler.name() + " did not set a scheduler state in initSchedule");
        }
        if (strategy != null || parent != null || factory != null) {
            cell.supervise(new Supervision(strategy != null ? strategy : SupervisorStrategy.stopping(), factory, parent, scheduler, threadMode));
            if (parent != null) {
                deathwatch.adopt(parent, cell);
            }
        }
        io.weft.actors.runtime.internal.routing.SpawnTimeRoutes.publish(cell, behavior); // a router's routes before its ref is out
        cell.activate();
        return cell.localRef();
    }

    /** Creates the actor of a thread that is already running (any thread as an actor). */
    public Cell<Object> adopt(Thread thread, Scheduler scheduler) {
        checkOpen("adopt a thread as an actor");
        long id = ids.incrementAndGet();
        Cell<Object> cell = new Cell<>(id, this, null, Mailbox.unbounded(), scheduler, self -> { }, true);
        table.put(cell);
        try {
            scheduler.initSchedule(cell);
        } catch (RuntimeException e) {
            unregister(cell);
            throw e;
        }
        cell.adoptCurrentThread();
        adopted.add(cell);
        if (sweeping.compareAndSet(false, true)) {
            long period = ADOPTED_SWEEP_MILLIS;
            try {
                timer().scheduleWithFixedDelay(this::sweepAdopted, period, period, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // the system is closing: close ends the actors of adopted threads itself
            }
        }
        return cell;
    }

    /** How often the timer looks for adopted threads that ended; system property {@code weft.adoptedSweepMillis}. */
    private static final long ADOPTED_SWEEP_MILLIS = Math.max(1, Long.getLong("weft.adoptedSweepMillis", 1000));

    /** Finishes the actors of adopted threads that have ended; runs on the timer thread. */
    void sweepAdopted() {
        for (Cell<?> cell : adopted) {
            if (cell.isTerminated()) {
                adopted.remove(cell);
                continue;
            }
            Thread t = cell.ownThread();
            if ((t == null || !t.isAlive()) && adopted.remove(cell)) {
                try {
                    cell.finishAdopted();
                } catch (RuntimeException e) {
                    LOG.warn("finishing the actor of ended thread {} failed", t, e);
                }
            }
        }
    }

    @Override
    public void unregister(Cell<?> cell) {
        releaseName(cell);
        table.remove(cell.id());
    }

    /** Frees the actor's name for a new spawn; idempotent. */
    public void releaseName(Cell<?> cell) {
        LocalRef<?> ref = cell.localRef();
        if (ref.hasGivenName()) {
            names.remove(ref.name(), ref);
        }
    }

    public void reportFailure(Cell<?> cell, Throwable t) {
        LOG.error("actor {} failed in system {} (scheduler {})", cell.ref(), name(), cell.scheduler().name(), t);
        lifecycle.publish(new LifecycleEvent(cell.ref(), LifecycleEvent.Kind.FAILED, t));
    }

    private void checkOpen(String what) {
        if (closed.get()) {
            throw new IllegalStateException("cannot " + what + ": actor system \"" + name() + "\" is closed");
        }
    }

    @Override
    public void stop(ActorRef<?> ref) {
        Objects.requireNonNull(ref, "ref");
        if (!(ref instanceof LocalRef<?> local) || local.cell().weftSystem() != this) {
            throw new IllegalArgumentException("stop: " + ref + " is not an actor of system \"" + name() + "\"");
        }
        Cell<?> cell = local.cell();
        if (cell.stopFromOutside() != null && !closed.get()) {
            // its own thread was interrupted: end the actor from outside if the body has not
            // returned after the grace period (close does the same itself)
            try {
                timer().schedule(() -> endAfterGrace(cell), settings.stopGracePeriod().toNanos(), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // the system is closing: close ends it
            }
        }
    }

    /** The stop grace period of {@code cell}'s interrupted thread has passed: end it from outside if it still runs. */
    private void endAfterGrace(Cell<?> cell) {
        Thread t = cell.endFromOutside();
        if (t != null) {
            LOG.warn("actor {} did not stop within {} ms after its thread {} was interrupted (it swallowed the interrupt or"
                    + " blocks uninterruptibly); it was ended from outside: its mail went to dead letters and its watchers"
                    + " were told. The thread keeps running; its receive now throws ActorStoppedException. At {}",
                    cell, settings.stopGracePeriod().toMillis(), t, where(t));
        }
    }

    /** The top frames of {@code t}'s stack, for a warning. */
    static String where(Thread t) {
        StackTraceElement[] stack = t.getStackTrace();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(6, stack.length); i++) {
            b.append("\n\tat ").append(stack[i]);
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ lookup

    @Override
    @SuppressWarnings("unchecked")
    public Optional<ActorRef<Object>> lookup(String name) {
        Objects.requireNonNull(name, "name");
        LocalRef<?> ref = names.get(name);
        return ref == null || ref.isTerminated() ? Optional.empty() : Optional.of((ActorRef<Object>) ref);
    }

    @Override
    @SuppressWarnings("unchecked")
    public ActorRef<Object> resolve(String address) {
        Objects.requireNonNull(address, "address");
        String prefix = "weft://" + name() + "/";
        int hash = address.lastIndexOf('#');
        if (!address.startsWith("weft://") || hash < 0) {
            throw new IllegalArgumentException("malformed actor address \"" + address + "\"; expected weft://system/name#id");
        }
        if (!address.startsWith(prefix)) {
            io.weft.actors.spi.AddressResolver remote = io.weft.actors.spi.AddressResolver.of(this);
            if (remote != null) {
                return remote.resolve(address);
            }
            throw new IllegalArgumentException("address \"" + address + "\" names another system than \"" + name()
                    + "\"; attach a remoting layer (actors-remote) to resolve remote addresses");
        }
        long id;
        try {
            id = Long.parseLong(address.substring(hash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed actor id in address \"" + address + "\"", e);
        }
        String actorName = address.substring(prefix.length(), hash);
        Cell<?> cell = table.get(id);
        if (cell != null && cell.localRef().name().equals(actorName)) {
            return (ActorRef<Object>) cell.localRef();
        }
        return new StoppedRef(this, id, actorName);
    }

    // ------------------------------------------------------------------ ask

    @Override
    public <T, R> CompletableFuture<R> ask(Channel<T> target, T message, Duration timeout) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(message, "message");
        PromiseRef<R> promise = newPromise(timeout, target, message.getClass().getName());
        target.tell(message, promise);
        return promise.future;
    }

    @Override
    public <T, R> CompletableFuture<R> askWith(Channel<T> target, Function<ActorRef<R>, ? extends T> request, Duration timeout) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(request, "request");
        PromiseRef<R> promise = newPromise(timeout, target, "request");
        @SuppressWarnings("unchecked")
        ActorRef<R> replyTo = (ActorRef<R>) (ActorRef<?>) promise;
        T message = request.apply(replyTo);
        target.tell(message, promise);
        return promise.future;
    }

    private <R> PromiseRef<R> newPromise(Duration timeout, Channel<?> target, String what) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("ask timeout: must be positive, was " + timeout);
        }
        PromiseRef<R> promise = new PromiseRef<>(this, -askIds.incrementAndGet());
        if (closed.get()) {
            promise.future.completeExceptionally(new IllegalStateException("actor system \"" + name() + "\" is closed"));
            return promise;
        }
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException e) {
            nanos = Long.MAX_VALUE / 4;
        }
        try {
            promise.timeout = timer().schedule(() -> promise.future.completeExceptionally(new AskTimeoutException(
                    "ask to " + target + " timed out after " + timeout.toMillis() + " ms waiting for a reply to " + what)),
                    nanos, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            promise.future.completeExceptionally(new IllegalStateException("actor system \"" + name() + "\" is closed"));
        }
        return promise;
    }

    // ------------------------------------------------------------------ events

    @Override
    public DeadLetters deadLetters() {
        return deadLetters;
    }

    @Override
    public EventStream<LifecycleEvent> lifecycle() {
        return lifecycle;
    }

    @Override
    public Schedulers schedulers() {
        return schedulers;
    }

    /** @return the built-in schedulers, with what close needs to know of them */
    BuiltinSchedulers builtins() {
        return schedulers;
    }

    @Override
    public long actorCount() {
        return table.size();
    }

    @Override
    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public void move(ActorRef<?> actor, Scheduler target) {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(target, "target");
        if (!(actor instanceof LocalRef<?> ref) || ref.cell().weftSystem() != this) {
            throw new IllegalArgumentException("actor: " + actor + " is not an actor of system \"" + name() + "\"");
        }
        if (ref.isTerminated()) {
            throw new IllegalArgumentException("actor: " + actor + " has stopped");
        }
        ref.cell().requestMove(target);
    }

    // ------------------------------------------------------------------ close (SystemClose)

    @Override
    public void close() {
        coordinated.close();
    }

    @Override
    public io.weft.actors.CoordinatedShutdown coordinatedShutdown() {
        return coordinated;
    }

    @Override
    public String toString() {
        return "ActorSystem[" + name() + "]";
    }
}
