package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Props;
import io.weft.actors.runtime.internal.schedule.MessageCounters;
import io.weft.actors.runtime.internal.schedule.TimerWheel;
import io.weft.actors.runtime.internal.telemetry.DeadLetterOffice;
import io.weft.actors.runtime.internal.telemetry.Listeners;
import io.weft.actors.spi.Scheduler;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What a cell needs from the system it lives in: counters, dead letters, lifecycle events, the
 * built-in schedulers, the timer, registration, failure reports and death watch. The system
 * (system.WeftSystem) extends it, so the cell layer depends on this class and not on the layers
 * above it (supervision, system).
 */
public abstract class CellHost implements ActorSystem {

    /* design
     * An abstract class rather than an interface: every send and every handled message calls
     * counters() through it, and a call to a class with one concrete subclass binds without a
     * guard (an interface call would go through the interface's dispatch).
     */

    /** The system's timer wheel (actor timers, CellTimers). */
    private final TimerWheel wheel;
    /** Failed spawns of pool routees (off every hot path: a factory that threw, a budget used up). */
    private final LongAdder routeeSpawnFailures = new LongAdder();

    /**
     * For the system.
     *
     * @param wheel the system's timer wheel
     */
    protected CellHost(TimerWheel wheel) {
        this.wheel = wheel;
    }

    /** @return the message counters of this system */
    public abstract MessageCounters counters();

    /** @return where undeliverable messages go */
    public abstract DeadLetterOffice deadLetterOffice();

    /**
     * Messages kept by an actor (selective receive) changed by {@code delta}: the system's count.
     *
     * @param delta added (positive) or removed (negative) kept messages
     */
    public abstract void keptChanged(int delta);

    /**
     * A pool router's spawn of a routee after its start failed (its factory threw, or its restart
     * budget did not let it replace a stopped routee): the system's count (SystemMetrics#routeeSpawnFailures).
     */
    public final void routeeSpawnFailed() {
        routeeSpawnFailures.increment();
    }

    /** @return the failed spawns of pool routees since the system started */
    public final long routeeSpawnFailures() {
        return routeeSpawnFailures.sum();
    }

    /**
     * Logs a warning about an actor's use of the system (the log and any warning listener).
     *
     * @param message the whole warning, naming the actor
     */
    public abstract void warn(String message);

    /**
     * Like {@link #warn(String)}, at most once a second for this system (the others are counted in
     * the next one), with the text built and logged on another thread (a virtual thread of its
     * own): the caller (an actor's thread, in the middle of a receive or a handler) pays the rate
     * limit's check and a hand-off, not the string building and the log's I/O.
     *
     * @param message builds the whole warning, naming the actor (called on another thread)
     */
    public abstract void warnRateLimited(Supplier<String> message);

    /** @return the lifecycle event stream (also emits the lifecycle JFR events) */
    public abstract Listeners<LifecycleEvent> lifecycleStream();

    /**
     * Applies the system's message policy (immutability checks or copies) to a message being sent.
     *
     * @param message the message
     * @return the message to queue
     */
    public abstract Object checkMessage(Object message);

    /** @return the scheduler of event-based actors that do not name one */
    public abstract Scheduler defaultScheduler();

    /** @return the scheduler of thread-based actors (virtual threads) */
    public abstract Scheduler threadScheduler();

    /** @return the system's timer (restart backoffs, stop grace periods) */
    public abstract ScheduledExecutorService timer();

    /** @return the system's timer wheel (actor timers); its thread starts with the first timer */
    public final TimerWheel timerWheel() {
        return wheel;
    }

    /**
     * Spawns a supervised child of {@code parent}.
     *
     * @param parent the parent
     * @param props name, mailbox, scheduler, supervisor strategy
     * @param factory the child's behavior, once per start
     * @param threadMode whether the child is thread-based
     * @param <M> the child's message type
     * @return the child's ref
     */
    public abstract <M> ActorRef<M> spawnSupervised(Cell<?> parent, Props props, Supplier<? extends Behavior<M>> factory, boolean threadMode);

    /** @param cell an actor that has stopped: frees its table slot (last step of its end) */
    public abstract void unregister(Cell<?> cell);

    /** @param cell an actor that has stopped: frees its name */
    public abstract void releaseName(Cell<?> cell);

    /**
     * Reports a failure of {@code cell} (a log line and a FAILED lifecycle event).
     *
     * @param cell the actor
     * @param t what it threw
     */
    public abstract void reportFailure(Cell<?> cell, Throwable t);

    // ---- death watch, links and children (supervision.Deathwatch)

    /** {@link io.weft.actors.ActorContext#watch}, for {@code watcher}. @param watcher the watcher @param target the watched */
    public abstract void watch(Cell<?> watcher, ActorRef<?> target);

    /** {@link io.weft.actors.ActorContext#unwatch}. @param watcher the watcher @param target the watched */
    public abstract void unwatch(Cell<?> watcher, ActorRef<?> target);

    /** {@link io.weft.actors.ActorContext#link}. @param self the actor @param other its partner */
    public abstract void link(Cell<?> self, ActorRef<?> other);

    /** {@link io.weft.actors.ActorContext#unlink}. @param self the actor @param other its partner */
    public abstract void unlink(Cell<?> self, ActorRef<?> other);

    /** {@link io.weft.actors.ActorContext#trapExit}. @param self the actor @param trap the setting */
    public abstract void trapExit(Cell<?> self, boolean trap);

    /**
     * Tells watchers, links and children that {@code cell} has stopped.
     *
     * @param cell the stopped actor
     * @param cause its failure, or null
     */
    public abstract void terminated(Cell<?> cell, Throwable cause);

    /** @param parent an actor restarting or stopping: stops its children */
    public abstract void stopChildren(Cell<?> parent);
}
