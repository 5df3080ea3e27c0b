package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.Mailbox;
import io.weft.actors.Receive;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.function.BooleanSupplier;
import io.weft.actors.runtime.internal.mailbox.AdaptiveQueue;
import io.weft.actors.runtime.internal.mailbox.MailboxOwner;
import io.weft.actors.runtime.internal.mailbox.Envelope;
import io.weft.actors.runtime.internal.mailbox.MailboxPolicy;

/**
 * The state of one actor cell and what every part of it reads: identity, the lifecycle word and
 * its accessors, owner-only fields, the rarely used extras and the dead-letter path. The parts
 * of a cell are a chain of classes, one concern each, ending in the final {@link Cell}:
 * {@link CellIngress} (what every send reads) &rarr; {@code CellCore} (state) &rarr; {@link CellSending} (sending, activation) &rarr;
 * {@link CellStash} (kept messages of selective receive) &rarr; {@link CellTurn} (the event-based turn) &rarr; {@link CellLifecycle} (failure, restart, stop)
 * &rarr; {@link CellThreadMode} (thread-based actors) &rarr; {@link Cell} (the Frame and
 * ActorContext surface).
 *
 * @param <M> the main channel's message type
 */
abstract class CellCore<M> extends CellIngress implements ActorContext<M>, EventQueue, Runnable, MailboxOwner {

    /* design
     * One cell is one object: an idle actor costs its fields, its ref and its mailbox, and a part
     * per concern as an object of its own would add a header and a reference per part to every
     * actor. So the parts are a chain of abstract classes in one package, each one concern with its
     * own design block (as Pekko's ActorCell is split into its dungeon traits); the JIT sees one
     * final class. A part calls a later part through an abstract method declared where the call is.
     *
     * Activation: the cell's word is its ActivationWord (states, transitions and invariants A1-A3
     * are stated there, once). How the cell uses it:
     *
     *   send:    queue.offer(msg) [a full fence]; activateIfIdle(): schedule (or, STOPPED, drain).
     *   execute: run the body / a batch; then
     *            - scheduler switch requested: keep active, hand the frame to the new scheduler;
     *            - work left (a queue non-empty, or stash to re-examine): keep active, schedule again;
     *            - else mailboxIdle() (the adaptive mailbox gives a chunked form back), then
     *              idleOrReclaim() (workPending: a message queued, or STOPPING or later), and schedule again if it reclaims.
     *   receive (thread mode) with nothing matching: mailboxIdle(), then idleOrReclaim() (the same re-check)
     *            (CellThreadMode.idleAndRecheck), before the thread parks.
     *
     * Invariants:
     *   I1 (serializability, Prokopec 2016, Theorem 1): ActivationWord A1; at most one handler runs.
     *   I2 (no lost wake-up, Lemma 2): ActivationWord A2, with the mailbox's offer as the sender's
     *      full fence: the default AdaptiveQueue's offer ends with a CAS on its tail (linked form)
     *      or an atomic add on the chunked form's producer index; a JCTools MPSC offer (the
     *      `weft.mailbox=linked` queue, BoundedQueue) is a CAS or an atomic exchange; DropOldQueue
     *      states its own.
     *   I3 (pending queue, Lemma 1): an opened channel is in `pending` at most once, guarded by its
     *      `queued` flag (ChannelQueue); the main channel is put there only by the owner
     *      (`mainInPending`). Single-channel actors have no pending queue at all: the main queue is
     *      drained directly, which is the common case and costs no extra object.
     *   I4 (lifecycle): NEW -> RUNNING -> STOPPING -> STOPPED, or NEW -> STOPPING; only the owner
     *      moves to STOPPED. After STOPPED no handler runs; anything still queued, and anything
     *      queued later, is drained to dead letters by the owner of the next activation. A stop
     *      from another thread (STOPPING, then an activation attempt) is never stranded: the
     *      owner's idle re-check reads the lifecycle as well as the queues (CellTurn.workPending;
     *      jcstress ActivationTests.ForeignStopVersusDeactivation). A move requested from another
     *      thread (`moveRequest`, then an activation attempt) is not stranded either: the same
     *      re-check reads it for an event-based actor (ForeignMoveVersusDeactivation).
     */

    /** This cell as the final class that the rest of the runtime knows. */
    @SuppressWarnings("unchecked")
    final Cell<M> cell() {
        return (Cell<M>) this;
    }

    static final int NEW = 0;

    static final int RUNNING = 1;

    static final int STOPPING = 2;

    static final int STOPPED = 3;

    private static final VarHandle LIFECYCLE;

    private static final VarHandle MOVE;

    static final int GATE_OPEN = 0;

    static final int GATE_RETURNED = 1;

    static final int GATE_TAKEN = 2;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            LIFECYCLE = l.findVarHandle(CellIngress.class, "lifecycle", int.class);
            MOVE = l.findVarHandle(CellCore.class, "moveRequest", Scheduler.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Field order (CellIngress's design block): what every send reads is declared in CellIngress,
    // so it sits right after `active` (offsets 12-31), and the owner's per-message writes
    // (continuation, sender) in CellTurn, so they take the last 8 bytes (72-79) of the 80-byte
    // cell. Here HotSpot puts the references first (32-59, next to CellIngress's), then the
    // booleans and `id`. A loop of reacts then takes the senders' line in 2 of the 8 placements
    // of a cell relative to a cache line.

    final long id;

    final LocalRef<M> ref;

    /** Written by the owner while active; read by a sender after it wins the activation CAS. */
    Scheduler scheduler;

    SchedulerState schedulerState;

    /**
     * A move requested from outside the actor (ActorSystem.move), taken by the owner in afterTurn.
     * Read as a field (a volatile load), written through MOVE (getAndSet, setVolatile).
     */
    volatile Scheduler moveRequest;

    // Owner-only state (I1): plain fields, published between owners by the active flag.
    Behavior<M> behavior;

    boolean threadMode;

    /** Whether {@code continuation} stays after it handles a message ({@link #become}). */
    boolean persistent;

    Extras extras;

    Hook hooks;

    /** A step to run when no continuation is pending (andThen, loop, loopWhile). */
    static final class Hook {
        final Runnable body;
        final boolean repeat;
        final BooleanSupplier condition;
        final Hook below;

        Hook(Runnable body, boolean repeat, BooleanSupplier condition, Hook below) {
            this.body = body;
            this.repeat = repeat;
            this.condition = condition;
            this.below = below;
        }
    }

    /** Rarely used state, allocated on first need so that an idle actor stays small. */
    static final class Extras {
        ArrayDeque<Object[]> stash;
        /** The stash must be searched before the queues (CellStash K2). */
        boolean stashDirty;
        /** No kept message was matched by this handler when last offered to it (CellStash K1), or null. */
        Receive<?, ?> stashCheckedWith;
        /** stashCheckedWith.matchesOnlyWhere(stashCheckedWith): it has no guard (CellStash K2). */
        boolean stashCheckedFixed;
        /** The stash's size, for mailboxDepth on other threads (CellStash K4). */
        volatile int kept;
        /** The growth warning was logged since the stash was last empty (CellStash K4). */
        boolean keptWarned;
        /** This actor's policy for unmatched messages, or null for the system's default. */
        io.weft.actors.Unhandled unhandled;
        Queue<EventQueue> pending;
        boolean mainInPending;
        List<ChannelQueue<?>> channels;
        Runnable threadBody;
        Scheduler switchTo;
        /** The thread-mode part on a scheduler whose state is not one (OwnThreadPart), else null. */
        OwnThreadPart ownPart;
        // supervision and death watch (Supervision, Deathwatch)
        Supervisor supervision;
        Throwable failure;
        boolean restartPending;
        long restartDelayNanos;
        /** What this incarnation hands to the next one (a router's membership), or null (CellLifecycle.handOver). */
        Object handOver;
        // hooks run once when this incarnation ends (onStop), last registered first
        ArrayDeque<Runnable> stopHooks;
        /** The actor's keyed timers (ActorContext.timers()), made on first use. */
        CellTimers<?> timers;
    }

    CellCore(long id, CellHost system, String name, Mailbox mailbox, Scheduler scheduler, Behavior<M> behavior, boolean threadMode) {
        super(system, MailboxPolicy.of(mailbox).newQueue());
        this.id = id;
        this.ref = LocalRef.of(cell(), name, behavior);
        this.scheduler = scheduler;
        this.behavior = behavior;
        this.threadMode = threadMode;
    }

    public long id() {
        return id;
    }

    public CellHost weftSystem() {
        return system;
    }

    @Override
    public ActorRef<?> ref() {
        return ref;
    }

    public LocalRef<M> localRef() {
        return ref;
    }

    @Override
    public String toString() {
        return ref.toString();
    }

    /** Whether any channel (main or opened) holds a message, regardless of the pending queue. */
    boolean hasQueued() {
        if (!mailbox.isEmpty()) {
            return true;
        }
        Extras x = extras;
        if (x != null && x.channels != null) {
            for (ChannelQueue<?> c : x.channels) {
                if (!c.queue.isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A volatile read of the lifecycle, as a field read (package-info: a field written through a
     * VarHandle may be read directly): one bytecode instead of a VarHandle call chain while the
     * caller still runs interpreted. CellTurn's batch loop and resume read the field directly.
     */
    int lvLifecycle() {
        return lifecycle;
    }

    boolean casLifecycle(int expected, int next) {
        return LIFECYCLE.compareAndSet(this, expected, next);
    }

    void svLifecycle(int next) {
        LIFECYCLE.setVolatile(this, next);
    }

    Scheduler gasMoveRequest(Scheduler next) {
        return (Scheduler) MOVE.getAndSet(this, next);
    }

    void svMoveRequest(Scheduler target) {
        MOVE.setVolatile(this, target);
    }

    /**
     * The thread-mode part (OwnThreadPart) for the owner: the scheduler's state if it is one,
     * else one kept in the extras, made on first need.
     */
    OwnThreadPart ownPart() {
        if (schedulerState instanceof OwnThreadPart p) {
            return p;
        }
        Extras x = extras();
        OwnThreadPart p = x.ownPart;
        if (p == null) {
            p = new OwnThreadPart.Detached(cell());
            x.ownPart = p;
        }
        return p;
    }

    /** The thread-mode part if there is one, without making one (any thread). */
    OwnThreadPart ownPartIfAny() {
        if (schedulerState instanceof OwnThreadPart p) {
            return p;
        }
        Extras x = extras;
        return x == null ? null : x.ownPart;
    }

    DeadLetter.Reason stoppedReason() {
        return system.isClosed() ? DeadLetter.Reason.SYSTEM_CLOSED : DeadLetter.Reason.RECIPIENT_STOPPED;
    }

    @Override
    public void countDropped() {
        system.counters().dropped();
    }

    @Override
    public ActorRef<?> nonBlockingSender() {
        Cell<?> sender = CurrentActor.current();
        return sender != null && sender.ownThread() != Thread.currentThread() ? sender.ref() : null;
    }

    @Override
    public void deadLetter(Object item, DeadLetter.Reason reason) {
        Object message = Envelope.unwrap(item);
        if (message instanceof CellTimers.Entry timer) {
            message = timer.message; // a timer's message, queued when it fired (CellTimers)
        }
        system.deadLetterOffice().publish(message, ref, Envelope.senderOf(item), reason);
    }

    @Override
    public boolean hasPending() {
        if (!mailbox.isEmpty()) {
            return true;
        }
        Extras x = extras;
        return x != null && x.pending != null && !x.pending.isEmpty();
    }

    /**
     * The owner, about to give the frame up with every queue empty: an {@link AdaptiveQueue} left
     * in its chunked form by a burst gives it back ({@link AdaptiveQueue#idle}), so that an idle
     * actor keeps the small linked form. The main mailbox and each opened channel's queue (made
     * like the mailbox, {@link MailboxPolicy#newQueueLike}): the owner is the only consumer of both.
     * An actor without opened channels reads only its null extras.
     */
    final void mailboxIdle() {
        if (mailbox instanceof AdaptiveQueue q) {
            q.idle();
        }
        Extras x = extras;
        if (x != null && x.channels != null) {
            for (ChannelQueue<?> c : x.channels) {
                if (c.queue instanceof AdaptiveQueue q) {
                    q.idle();
                }
            }
        }
    }

    @Override
    public boolean isTerminated() {
        return lvLifecycle() == STOPPED;
    }

    /** @return queued messages on all channels plus kept ones (the stash), approximate */
    public int queuedMessages() {
        int n = mailbox.size();
        Extras x = extras;
        if (x != null) {
            n += x.kept;
            if (x.channels != null) {
                for (ChannelQueue<?> c : x.channels) {
                    n += c.size();
                }
            }
        }
        return n;
    }

    Extras extras() {
        Extras x = extras;
        if (x == null) {
            x = new Extras();
            extras = x;
        }
        return x;
    }
}
