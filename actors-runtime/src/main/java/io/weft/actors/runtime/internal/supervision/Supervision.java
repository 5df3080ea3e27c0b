package io.weft.actors.runtime.internal.supervision;

import io.weft.actors.Behavior;
import io.weft.actors.SupervisorStrategy;
import io.weft.actors.SupervisorStrategy.Directive;
import io.weft.actors.spi.Scheduler;
import java.util.ArrayDeque;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.weft.actors.runtime.internal.cell.Cell;
import io.weft.actors.runtime.internal.cell.Supervisor;
import io.weft.actors.runtime.internal.cell.SystemSignal;

/**
 * The supervision state of one actor: its strategy, its behavior factory, its parent, where it
 * started, and the times of its recent restarts. Lives in the actor's rarely used state; only the
 * actor itself reads or changes it, on its own turn.
 */
public final class Supervision implements Supervisor {

    /* design
     * On a failure (Cell.fail, on the failing actor's own turn) the strategy picks a directive:
     *   RESUME   event-based actor failing inside a handler: the handler is kept as the continuation
     *            (Cell.deliver restores it), the failing message is gone; otherwise as RESTART.
     *   RESTART  restarts within the window are counted; one more than the maximum stops the actor.
     *            Otherwise Cell.prepareRestart: forget continuation and hooks, keep mailbox and stash,
     *            lifecycle RUNNING -> NEW, new behavior from the factory. The frame stays active
     *            (owned) through the backoff, so senders only enqueue; afterTurn hands it to the
     *            timer, which schedules it on its home scheduler after the delay; the next turn
     *            starts the new behavior (a thread-based actor on a new thread). The actor's
     *            children are stopped first, so the new behavior starts without any; except
     *            when the ending incarnation handed its state over (Cell.handOver: a pool
     *            router's membership), which the new one takes over with the children (its
     *            routees, which keep running, state and mailbox untouched).
     *   ESCALATE the actor stops, and its parent gets a SystemSignal with the same failure, which
     *            fails the parent on its own turn.
     *   STOP     the actor stops with the failure as its cause.
     */

    private static final Logger LOG = LoggerFactory.getLogger(Supervision.class);

    final SupervisorStrategy strategy;
    final Supplier<? extends Behavior<?>> factory;
    final Cell<?> parent;
    final Scheduler home;
    final boolean threadMode;
    private final ArrayDeque<Long> restarts = new ArrayDeque<>();

    public Supervision(SupervisorStrategy strategy, Supplier<? extends Behavior<?>> factory, Cell<?> parent, Scheduler home, boolean threadMode) {
        this.strategy = strategy;
        this.factory = factory;
        this.parent = parent;
        this.home = home;
        this.threadMode = threadMode;
    }

    /**
     * Applies the strategy to a failure of {@code cell}.
     *
     * @return true if the actor goes on (resumed or restarting), false if it must stop
     */
    @Override
    public Scheduler home() {
        return home;
    }

    @Override
    public boolean threadMode() {
        return threadMode;
    }

    @Override
    public boolean onFailure(Cell<?> cell, Throwable failure) {
        Directive d = strategy.decide(failure);
        switch (d) {
            case RESUME:
                if (cell.canResume()) {
                    return true;
                }
                return restart(cell, failure);
            case RESTART:
                return restart(cell, failure);
            case ESCALATE:
                if (parent != null) {
                    parent.sendMain(new SystemSignal(failure), null);
                }
                return false;
            case STOP:
            default:
                return false;
        }
    }

    private boolean restart(Cell<?> cell, Throwable failure) {
        if (factory == null) {
            LOG.warn("actor {} cannot restart after {}: it was spawned without a behavior factory; stopping it", cell.ref(), failure.toString());
            return false;
        }
        long now = System.nanoTime();
        long window = strategy.window().toNanos();
        while (!restarts.isEmpty() && now - restarts.peekFirst() > window) {
            restarts.pollFirst();
        }
        if (restarts.size() >= strategy.maxRestarts()) {
            LOG.warn("actor {} failed after {} restarts within {}; stopping it", cell.ref(), restarts.size(), strategy.window());
            return false;
        }
        restarts.addLast(now);
        Behavior<?> next;
        try {
            next = factory.get();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
            LOG.warn("behavior factory of {} failed; stopping it", cell.ref(), e);
            return false;
        }
        if (next == null) {
            LOG.warn("behavior factory of {} returned null; stopping it", cell.ref());
            return false;
        }
        if (!cell.prepareRestart(next, strategy.backoff(restarts.size()).toNanos())) {
            return false;
        }
        if (cell.handedOver() == null) {
            cell.weftSystem().stopChildren(cell); // the new behavior starts without children
        } // else the new behavior takes the children over (a pool router's routees, Cell.handOver)
        return true;
    }

    /** @return how many restarts are counted in the current window */
    int recentRestarts() {
        return restarts.size();
    }
}
