package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.Mailbox;
import io.weft.actors.spi.Scheduler;
import java.util.Objects;
import java.util.function.LongSupplier;
import io.weft.actors.runtime.internal.mailbox.Envelope;
import io.weft.actors.runtime.internal.mailbox.Stamped;
import io.weft.actors.runtime.internal.mailbox.MailboxPolicy;
import io.weft.actors.runtime.internal.telemetry.Telemetry;

/**
 * The sending part of an actor cell (any thread): queueing a message under the mailbox's policy,
 * activating the frame and handing it to its scheduler, late sends to a stopped actor, and moves.
 *
 * @param <M> the main channel's message type
 */
abstract class CellSending<M> extends CellCore<M> {

    /* design
     * A send queues first, then activates (I2): activateIfIdle() after the offer, and the winner
     * schedules the frame (scheduleOwned) or, if the actor has STOPPED meanwhile, drains the late
     * message to dead letters itself (I4), since a stopped actor's scheduler may never run it
     * again. A scheduler that refuses the frame (it throws from schedule) stops the actor as a
     * failure, reported, unless the system is closing. A move is a request (`moveRequest`) that
     * the owner takes at the end of a turn (CellTurn).
     */

    CellSending(long id, CellHost system, String name, Mailbox mailbox, Scheduler scheduler, Behavior<M> behavior, boolean threadMode) {
        super(id, system, name, mailbox, scheduler, behavior, threadMode);
    }

    // from later parts (CellLifecycle)

    /** Asks the actor to stop after its current handler; idempotent; any thread. */
    abstract void requestStop();

    /** The scheduler is gone: finish the actor on the calling thread, which owns the frame. */
    abstract void terminateInline();

    /** Moves everything queued or stashed to dead letters; the owner of a stopped frame. */
    abstract void drainToDeadLetters();

    public void sendMain(Object message, ActorRef<?> replyTo) {
        send(message, replyTo);
    }

    /**
     * {@link LocalRef}'s tell: the system's message guard, then {@link #sendMain}'s work. Package
     * private, so that the call from the ref reaches this method itself: a public method of this
     * package-private class is called through an access bridge in the public subclass, one more
     * call per message while the sender runs interpreted or C1 code (the cold demo sends a
     * million messages that way).
     */
    void tellFromRef(Object message, ActorRef<?> replyTo) {
        send(system.checkMessage(message), replyTo);
    }

    void send(Object message, ActorRef<?> replyTo) {
        Object item = item(message, replyTo);
        if (lvLifecycle() == STOPPED) {
            deadLetter(item, stoppedReason());
            return;
        }
        if (MailboxPolicy.offer(cell(), mailbox, item)) {
            system.counters().sent();
            activateFromSend();
        }
    }

    /** What a send queues: the message, with its reply-to in an Envelope, stamped if wanted. */
    Object item(Object message, ActorRef<?> replyTo) {
        Objects.requireNonNull(message, "message");
        Object item = replyTo == null ? message : new Envelope(message, replyTo);
        return stampClock != null || Telemetry.queueTimeWanted() ? stamped(item) : item;
    }

    /**
     * Wraps an item in its enqueue time: the time-stamping scheduler's clock (Prokopec 2016, §4), or
     * System.nanoTime() while JFR records MessageHandled (queue time). Out of line: the default
     * send path stamps nothing, and a small sendMain is inlined into the caller.
     */
    Object stamped(Object item) {
        LongSupplier clock = stampClock;
        return new Stamped(item, clock != null ? clock.getAsLong() : System.nanoTime());
    }

    <T> void sendOn(ChannelQueue<T> channel, Object message, ActorRef<?> replyTo) {
        Object item = item(message, replyTo);
        if (lvLifecycle() == STOPPED) {
            deadLetter(item, stoppedReason());
            return;
        }
        if (!MailboxPolicy.offer(cell(), channel.queue, item)) {
            return;
        }
        system.counters().sent();
        if (channel.markQueued()) {
            channel.pending.offer(channel);
        }
        activateFromSend();
    }

    void activateFromSend() {
        if (activateIfIdle()) {
            if (lvLifecycle() == STOPPED) {
                // I4: the actor stopped between our lifecycle check and our offer; its scheduler
                // may never run it again (a thread scheduler's thread has ended), so the sender
                // that won the activation drains the late message to dead letters itself.
                drainStoppedAndRelease();
                return;
            }
            scheduleOwned();
        }
    }

    /** Owner of a STOPPED frame: drains to dead letters and releases, re-checking for late sends (I4). */
    void drainStoppedAndRelease() {
        do {
            drainToDeadLetters();
            svIdle();
        } while (hasQueued() && casActive());
    }

    /** Activates the frame if idle (spawn, stop requests). */
    public void activate() {
        if (casActive()) {
            if (lvLifecycle() == STOPPED) {
                drainStoppedAndRelease();
                return;
            }
            scheduleOwned();
        }
    }

    /** Hands the owned, active frame to its scheduler; if that fails, cleans up on this thread. */
    void scheduleOwned() {
        Scheduler s = scheduler;
        try {
            s.schedule(this);
        } catch (RuntimeException rejected) {
            // Nothing can run the actor any more. While the system closes, that is its scheduler
            // shutting down; otherwise the scheduler failed (a custom policy's bug, a full pool
            // queue), and the actor stops as a failure with that cause, reported, not silently.
            if (!system.isClosed()) {
                system.reportFailure(cell(), rejected);
                extras().failure = rejected;
            }
            requestStop();
            terminateInline();
        }
    }

    /** Asks the actor to move after its current or next turn; any thread; activates an idle actor. */
    public void requestMove(Scheduler target) {
        checkMoveTarget(target);
        svMoveRequest(target);
        activate();
    }

    void checkMoveTarget(Scheduler target) {
        Objects.requireNonNull(target, "target");
        if (target.ownsThread()) {
            throw new IllegalArgumentException("target: scheduler " + target.name() + " gives each actor its own thread;"
                    + " an event-based actor cannot move there (use switchToThread)");
        }
    }
}
