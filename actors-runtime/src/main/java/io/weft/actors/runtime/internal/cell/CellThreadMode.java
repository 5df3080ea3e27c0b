package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorStoppedException;
import io.weft.actors.Behavior;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.runtime.internal.telemetry.Listeners;
import io.weft.actors.Mailbox;
import io.weft.actors.Receive;
import io.weft.actors.ReceiveTimeoutException;
import io.weft.actors.spi.Scheduler;
import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import io.weft.actors.runtime.internal.mailbox.Envelope;

/**
 * Thread-based actors on a cell: the body on the actor's own thread, blocking selective
 * {@code receive} with its timeout, parking until a sender activates the frame, and threads
 * adopted as actors ({@code Actors.self}).
 *
 * @param <M> the main channel's message type
 */
public abstract class CellThreadMode<M> extends CellLifecycle<M> {

    /* design
     * The actor's own thread owns the frame while it runs the body (OwnThreadPart.thread: the
     * fields of thread mode live in the scheduler's per-actor state, see there). receive
     * searches the stash, then the queues, in arrival order (selective receive, Haller and
     * Odersky 2009, §3.2); with nothing matching, receive (or receiveUntil, with a deadline) gives the frame up
     * (mailboxIdle, so an adaptive queue gives a chunked form back, then svIdle and the re-check, I2) and parks until a sender's activateIfIdle wins and the thread scheduler's
     * schedule unparks it (a continuation scheduler resumes it: OwnThreadPart.pause), or the deadline passes (casActive takes the frame back). While the actor
     * stops, receive keeps the frame and throws ActorStoppedException; the exit gate with
     * CellLifecycle's endFromOutside decides who finishes a thread that does not return. react in
     * thread mode throws DetachSignal (Cell.await): the thread unwinds and the frame goes to the
     * event scheduler still active. An adopted thread owns its frame from adoption on and has no
     * scheduler turn: it finishes its actor itself (checkNotStopped, finishAdopted).
     *
     * Counting receives: a received message is counted in OwnThreadPart.handledUnflushed, owner-only, and
     * added to the system's counters every HANDLED_BATCH messages, before the actor parks, when its
     * body ends and when an adopted thread finishes: one striped-adder update per batch instead of
     * one per message from threads outside the pool (a quarter of the samples of big on thread-based
     * actors were that adder). The system's handled count of a running thread-based actor lags by
     * fewer than HANDLED_BATCH; of a parked or ended one it is exact.
     *
     * The parked stack: a parked virtual thread keeps its frames in a heap stack chunk, the largest
     * part of an idle thread-based actor (docs/benchmarks.md, "Thread-based actors"), and an
     * interpreted frame costs about 100 bytes however little it holds. So the path from the body
     * to the park is kept short: the body is called from runThreadMode itself (not through
     * CellTurn.start), the wait is written inside receive (no method of its own; poll, the
     * search without a wait, has returned before the park), and this
     * class is public and declares execute so that neither receive nor execute has an access
     * bridge (javac adds one to a public class for a public method of a package-private parent).
     */

    CellThreadMode(long id, CellHost system, String name, Mailbox mailbox, Scheduler scheduler, Behavior<M> behavior, boolean threadMode) {
        super(id, system, name, mailbox, scheduler, behavior, threadMode);
    }

    /**
     * Runs turns while the frame is active (CellTurn's design block: the scheduler contract). Declared
     * here, not in the package-private CellTurn, so that no access bridge stands between the
     * scheduler's frame and this one on a thread-based actor's parked stack.
     */
    @Override
    public void execute() {
        Thread thread = Thread.currentThread();
        do {
            Cell<?> previous = CurrentActor.enter(thread, cell());
            try {
                if (threadMode) {
                    if (!runThreadMode()) {
                        return; // the actor was ended from outside: this thread no longer owns the frame
                    }
                } else {
                    runEventMode();
                }
            } finally {
                CurrentActor.leave(thread, previous);
            }
        } while (afterTurn());
    }

    /**
     * Runs the body (or the rest of a switchToThread) on the actor's own thread.
     *
     * @return false if the actor was ended from outside meanwhile (endFromOutside): the caller
     *     must not touch the frame again
     */
    @Override
    boolean runThreadMode() {
        OwnThreadPart x = ownPart();
        if (x.lvGate() == GATE_TAKEN) {
            return false;
        }
        x.svGate(GATE_OPEN); // a new incarnation (restart, switchToThread) of a live actor
        if (x.stopWoke) {
            x.stopWoke = false; // woken by a stop between turns: the thread runs again
        }
        x.thread = Thread.currentThread();
        Throwable failed = null;
        try {
            if (lvLifecycle() == NEW && casLifecycle(NEW, RUNNING)) {
                // CellTurn.start's steps, written out so the body runs one frame higher (design
                // block: the parked stack)
                Listeners<LifecycleEvent> lifecycle = system.lifecycleStream();
                if (lifecycle.wanted()) { // no event built for no one: a spawn's cost (fjcreate)
                    lifecycle.publish(new LifecycleEvent(ref, LifecycleEvent.Kind.STARTED, null));
                }
                Behavior<M> b = behavior;
                behavior = null;
                b.start(this);
                resume();
            } else if (lvLifecycle() == RUNNING && extras != null && extras.threadBody != null) {
                Runnable body = extras.threadBody;
                extras.threadBody = null;
                body.run();
                resume();
            }
        } catch (DetachSignal detached) {
            threadMode = false;
            Extras e = extras();
            if (e.switchTo == null) {
                e.switchTo = system.defaultScheduler();
            }
            e.stashDirty = true;
        } catch (ActorStoppedException stopped) {
            if (lvLifecycle() == RUNNING) {
                failed = stopped;
            }
        } catch (Throwable t) {
            failed = t;
        } finally {
            flushHandled(x);
            x.thread = null;
        }
        if (!x.casGate(GATE_OPEN, GATE_RETURNED)) {
            if (failed != null) {
                org.slf4j.LoggerFactory.getLogger(Cell.class).warn(
                        "the thread of {}, which was ended from outside after the stop grace period, ended its body with", ref, failed);
            }
            return false;
        }
        if (x.interrupted) {
            // the interrupt was the stopper's (stopFromOutside): it is spent, so the onStop hooks
            // run on this thread without it, and an InterruptedException that ended the body is
            // the stop taking effect, not a failure
            Thread.interrupted();
            if (failed != null && causedByInterrupt(failed) && lvLifecycle() >= STOPPING) {
                failed = null;
            }
        }
        if (failed != null) {
            fail(failed);
        }
        return true;
    }

    static boolean causedByInterrupt(Throwable t) {
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof InterruptedException || t instanceof java.io.InterruptedIOException
                    || t instanceof java.nio.channels.ClosedByInterruptException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Refuses receive anywhere but on the actor's own thread running its body.
     *
     * @return the actor's thread-mode part
     */
    OwnThreadPart checkReceiveAllowed(Object handler) {
        Objects.requireNonNull(handler, "handler");
        OwnThreadPart x = threadMode ? ownPartIfAny() : null;
        if (x == null || x.thread != Thread.currentThread()) {
            if (CurrentActor.current() == this) {
                throw new IllegalStateException("receive called inside a react handler of " + ref
                        + ": it would block a pool worker. Use react(handler), or switchToThread(body) to continue as a thread-based actor");
            }
            throw new IllegalStateException("receive called on " + ref + " from thread " + Thread.currentThread().getName()
                    + ", which is not the actor's own thread");
        }
        return x;
    }

    /** What {@link #poll} returns when nothing matched. */
    private static final Object NOTHING = new Object();

    @Override
    @SuppressWarnings("unchecked")
    public <R> R receive(Receive<? super M, R> handler) {
        OwnThreadPart x = checkReceiveAllowed(handler);
        for (;;) {
            Object r = poll(handler);
            if (r != NOTHING) {
                return (R) r;
            }
            // nothing matched: wait, written here and not in a method of its own, so a parked
            // actor's stack has one frame less (design block: the parked stack)
            if (lvLifecycle() >= STOPPING || idleAndRecheck(x)) {
                continue; // stopping: keep the frame, poll's check throws (design block: stopping)
            }
            while (!lvActive()) {
                if (lvLifecycle() == STOPPED) {
                    throw stoppedInReceive();
                }
                if (x.yields) {
                    x.pause(this, Long.MAX_VALUE);
                } else {
                    LockSupport.park(this);
                }
            }
        }
    }

    @Override
    public <R> R receiveWithin(Duration timeout, Receive<? super M, R> handler) {
        Objects.requireNonNull(timeout, "timeout");
        OwnThreadPart x = checkReceiveAllowed(handler);
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout: must not be negative, was " + timeout);
        }
        long nanos = saturatedNanos(timeout);
        long deadline = System.nanoTime() + nanos;
        return receiveUntil(x, handler, nanos == 0 ? 0 : deadline);
    }

    static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException overflow) {
            return Long.MAX_VALUE / 2;
        }
    }

    /** {@link #receive} with a deadline ({@link System#nanoTime()}; 0: do not wait at all). */
    @SuppressWarnings("unchecked")
    <R> R receiveUntil(OwnThreadPart x, Receive<? super M, R> handler, long deadline) {
        for (;;) {
            Object r = poll(handler);
            if (r != NOTHING) {
                return (R) r;
            }
            if (deadline == 0 || System.nanoTime() - deadline >= 0) {
                return timeout((Receive<Object, R>) handler);
            }
            if (lvLifecycle() >= STOPPING || idleAndRecheck(x)) {
                continue;
            }
            while (!lvActive()) {
                if (lvLifecycle() == STOPPED) {
                    throw stoppedInReceive();
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    if (casActive()) {
                        break; // owning the frame again; the next round times out
                    }
                    continue; // a sender won the race: it will hand us the frame
                }
                if (x.yields) {
                    x.pause(this, deadline);
                } else {
                    LockSupport.parkNanos(this, left);
                }
            }
        }
    }

    /**
     * Gives the frame up before a wait (I2), then takes it back if work or a stop arrived meanwhile.
     *
     * @return true if the frame is owned again (the caller polls again), false to wait
     */
    private boolean idleAndRecheck(OwnThreadPart x) {
        flushHandled(x); // before the frame is given up: a parked actor's count is complete
        mailboxIdle();
        return idleOrReclaim(); // workPending: a message, or a stop
    }

    private ActorStoppedException stoppedInReceive() {
        // ended from outside while waiting (endFromOutside); the frame is not ours any more
        return new ActorStoppedException("actor " + ref + " was stopped while in receive");
    }

    /**
     * One round of a selective receive without waiting: the stash, then the queues, in arrival
     * order (design block).
     *
     * @return the handler's result, or {@link #NOTHING} if no message matched
     */
    @SuppressWarnings("unchecked")
    private Object poll(Receive<? super M, ?> h) {
        Receive<Object, ?> handler = (Receive<Object, ?>) h;
        for (;;) {
            checkNotStopped();
            Extras x = extras; // re-read: keeping a message makes the extras
            // 1. the stash, in arrival order, if a kept message may match (CellStash K2)
            if (mustSearch(x, handler)) {
                for (Iterator<Object[]> it = x.stash.iterator(); it.hasNext(); ) {
                    Object[] saved = it.next();
                    ChannelQueue<?> on = (ChannelQueue<?>) saved[0];
                    Object item = saved[1];
                    if (handler.isDefinedAt(on == null ? null : on.channel(), Envelope.unwrap(item))) {
                        it.remove();
                        unkept(x);
                        return applyReceived(handler, on, item);
                    }
                }
                checked(x, handler); // K1: a full search found nothing
            }
            // 2. newly arrived messages (the stash search ran user code: stopped meanwhile?)
            checkNotStopped();
            Object item = mailbox.relaxedPoll();
            ChannelQueue<?> on = null;
            if (item == null && x != null && x.channels != null) {
                for (ChannelQueue<?> c : x.channels) {
                    item = c.queue.relaxedPoll();
                    if (item != null) {
                        on = c;
                        break;
                    }
                }
            }
            if (item == null) {
                return NOTHING;
            }
            Object message = Envelope.unwrap(item);
            if (message instanceof SystemSignal signal) {
                signal.raise(); // fails this actor on its own thread (Supervision)
            }
            if (message instanceof CellTimers.Entry timer) {
                message = timer.owner.accept(timer); // the owner's check (CellTimers' design block)
                if (message == null) {
                    continue; // a replaced or cancelled timer's message: dropped
                }
                item = message;
            }
            ActorRef<?> previous = sender;
            sender = Envelope.senderOf(item);
            Object r = handler.tryApply(on == null ? null : on.channel(), message);
            if (r != Receive.NO_MATCH) {
                countHandled();
                return r; // sender stays: the code after receive may reply
            }
            sender = previous;
            if (lvLifecycle() >= STOPPING) {
                // the actor stops (it may have been ended from outside while the handler ran):
                // the stash may already be drained, so the declined message is a dead letter now
                deadLetter(item, stoppedReason());
                continue;
            }
            keep(on, item, handler);
        }
    }

    /** Thread mode: after receive returns, sender() stays the sender of the message it received. */
    <R> R applyReceived(Receive<Object, R> handler, ChannelQueue<?> on, Object item) {
        sender = Envelope.senderOf(item);
        R r = handler.apply(on == null ? null : on.channel(), Envelope.unwrap(item));
        countHandled();
        return r;
    }

    <R> R timeout(Receive<Object, R> handler) {
        if (handler.hasTimeoutCase()) {
            return handler.onTimeout();
        }
        throw new ReceiveTimeoutException("receiveWithin on " + ref + " timed out and the handler has no onTimeout case");
    }

    void checkNotStopped() {
        if (lvLifecycle() >= STOPPING) {
            OwnThreadPart x = ownPartIfAny();
            if (x != null && x.stopWoke) {
                x.stopWoke = false; // the body runs again: a stopper may interrupt it if it stays
            }
            if (x != null && x.adopted && lvLifecycle() != STOPPED && x.casGate(GATE_OPEN, GATE_RETURNED)) {
                // An adopted thread owns its frame here and has no scheduler turn to finish it.
                flushHandled(x);
                terminate();
                drainStoppedAndRelease();
            }
            throw new ActorStoppedException("actor " + ref + " was stopped while in receive");
        }
    }

    /** Receives counted in the actor before they are added to the system's counters. */
    static final int HANDLED_BATCH = 64; // below 128: OwnThreadPart.handledUnflushed is a byte

    /** Counts one received message, in batches (design block: counting receives); owner only. */
    void countHandled() {
        OwnThreadPart x = ownPart();
        if (++x.handledUnflushed >= HANDLED_BATCH) {
            flushHandled(x);
        }
    }

    /** Adds the receives counted in the actor to the system's counters. */
    void flushHandled(OwnThreadPart x) {
        int n = x.handledUnflushed;
        if (n != 0) {
            x.handledUnflushed = 0;
            system.counters().handled(n);
        }
    }

    /** Prepares a frame created for a thread that is already running (any thread as an actor). */
    public void adoptCurrentThread() {
        svLifecycle(RUNNING);
        svActive();
        OwnThreadPart x = ownPart();
        x.adopted = true;
        x.thread = Thread.currentThread(); // volatile: publishes `adopted` to stoppers
    }

    /** @return true if this is the actor of an adopted thread ({@link #adoptCurrentThread}) */
    public boolean isAdopted() {
        OwnThreadPart x = ownPartIfAny();
        return x != null && x.adopted;
    }

    /** The thread of a thread-based actor, or null. */
    public Thread ownThread() {
        OwnThreadPart x = ownPartIfAny();
        return x == null ? null : x.thread;
    }

    /** Ends an adopted thread's actor from that thread (or after the thread died). */
    public void finishAdopted() {
        OwnThreadPart x = ownPart();
        flushHandled(x);
        if (!x.casGate(GATE_OPEN, GATE_RETURNED) && x.lvGate() == GATE_TAKEN) {
            return; // ended from outside already (endFromOutside), which released the frame
        }
        requestStop();
        if (lvLifecycle() != STOPPED) {
            terminate();
        }
        drainStoppedAndRelease();
    }
}
