package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Props;
import io.weft.actors.runtime.internal.schedule.MessageCounters;
import io.weft.actors.runtime.internal.telemetry.DeadLetterOffice;
import io.weft.actors.runtime.internal.telemetry.Listeners;
import io.weft.actors.spi.Scheduler;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * What a cell needs from the system it lives in: counters, dead letters, lifecycle events, the
 * built-in schedulers, the timer, registration, failure reports and death watch. The system
 * (system.WeftSystem) implements it, so the cell layer depends on this interface and not on the
 * layers above it (supervision, system).
 */
public interface CellHost extends ActorSystem {

    /** @return the message counters of this system */
    MessageCounters counters();

    /** @return where undeliverable messages go */
    DeadLetterOffice deadLetterOffice();

    /** @return the lifecycle event stream (also emits the lifecycle JFR events) */
    Listeners<LifecycleEvent> lifecycleStream();

    /**
     * Applies the system's message policy (immutability checks or copies) to a message being sent.
     *
     * @param message the message
     * @return the message to queue
     */
    Object checkMessage(Object message);

    /** @return the scheduler of event-based actors that do not name one */
    Scheduler defaultScheduler();

    /** @return the scheduler of thread-based actors (virtual threads) */
    Scheduler threadScheduler();

    /** @return the system's timer (restart backoffs, stop grace periods) */
    ScheduledExecutorService timer();

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
    <M> ActorRef<M> spawnSupervised(Cell<?> parent, Props props, Supplier<? extends Behavior<M>> factory, boolean threadMode);

    /** @param cell an actor that has stopped: frees its table slot (last step of its end) */
    void unregister(Cell<?> cell);

    /** @param cell an actor that has stopped: frees its name */
    void releaseName(Cell<?> cell);

    /**
     * Reports a failure of {@code cell} (a log line and a FAILED lifecycle event).
     *
     * @param cell the actor
     * @param t what it threw
     */
    void reportFailure(Cell<?> cell, Throwable t);

    // ---- death watch, links and children (supervision.Deathwatch)

    /** {@link io.weft.actors.ActorContext#watch}, for {@code watcher}. @param watcher the watcher @param target the watched */
    void watch(Cell<?> watcher, ActorRef<?> target);

    /** {@link io.weft.actors.ActorContext#unwatch}. @param watcher the watcher @param target the watched */
    void unwatch(Cell<?> watcher, ActorRef<?> target);

    /** {@link io.weft.actors.ActorContext#link}. @param self the actor @param other its partner */
    void link(Cell<?> self, ActorRef<?> other);

    /** {@link io.weft.actors.ActorContext#unlink}. @param self the actor @param other its partner */
    void unlink(Cell<?> self, ActorRef<?> other);

    /** {@link io.weft.actors.ActorContext#trapExit}. @param self the actor @param trap the setting */
    void trapExit(Cell<?> self, boolean trap);

    /**
     * Tells watchers, links and children that {@code cell} has stopped.
     *
     * @param cell the stopped actor
     * @param cause its failure, or null
     */
    void terminated(Cell<?> cell, Throwable cause);

    /** @param parent an actor restarting or stopping: stops its children */
    void stopChildren(Cell<?> parent);
}
