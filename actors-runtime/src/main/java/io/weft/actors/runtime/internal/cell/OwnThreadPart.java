package io.weft.actors.runtime.internal.cell;

import io.weft.actors.spi.Frame;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The state a thread-based actor needs while a thread of its own runs its body: that thread, the
 * exit gate, the stopper's interrupt flag and the batch of uncounted receives. A scheduler that
 * gives each actor its own thread makes its per-actor scheduler state a subclass, so a plain
 * thread-based actor carries these fields in the object its scheduler needs anyway; on any other
 * scheduler the cell keeps a {@link Detached} part in its extras.
 */
public abstract class OwnThreadPart {

    /* design
     * Why here: these fields used to live in the cell's Extras, which a thread-based actor then
     * allocated for its whole life (80 bytes, mostly fields it never uses: stash, channels,
     * supervision). The scheduler's per-actor state exists anyway and lives exactly as long as
     * the actor runs on that scheduler, which is when these fields mean something: a restart,
     * switchToThread or a detach to react makes a new state (a new part), and runThreadMode opens
     * the gate of each new incarnation. Readers outside the owner (stopFromOutside, endFromOutside,
     * ownThread) reach the part through Cell.schedulerState; a stale read of a part being replaced
     * finds `thread` null (the old incarnation returned), as with a body that has not started.
     *
     * Fields: `thread` (volatile) is the thread running the body, null outside runThreadMode;
     * `gate` (CAS only, GATE_OPEN -> GATE_RETURNED | GATE_TAKEN) decides who finishes the actor
     * (CellLifecycle's design block); `interrupted` says the stopper interrupted `thread` once;
     * `stopWoke` says a stopper woke the body from receive and it has not run since;
     * `adopted` marks an adopted thread (Actors.self); `handledUnflushed` is owner-only
     * (CellThreadMode, counting receives).
     *
     * Parking: `yields` is false for a real thread per actor, whose receive parks with
     * LockSupport (written inline in CellThreadMode.receive). A scheduler that runs bodies as
     * continuations sets it and overrides pause, idle and wake: receive then calls pause, which
     * gives the carrier up, the loop between turns calls idle, and a stop wakes the body through
     * wake instead of unpark or interrupt.
     *
     * The loop (run): both schedulers of thread-based actors (a thread per actor, and the
     * continuation scheduler) run the same loop as the body of the actor's thread or
     * continuation: execute, then wait while the frame is inactive, until the frame terminates or
     * moves to another scheduler (its state is no longer this part). It is written once here and
     * differs only in the wait (a park, or idle's yield); it is the entry frame itself (the
     * subclass implements Runnable with this run), so a parked actor's stack has no frame more
     * than with a loop of its own. A scheduler's bookkeeping when the loop ends goes in ended.
     */

    private static final VarHandle GATE;

    static {
        try {
            GATE = MethodHandles.lookup().findVarHandle(OwnThreadPart.class, "gate", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The actor's frame. */
    protected final Frame frame;

    /** Whether the body gives up a shared carrier to wait ({@link #pause}) instead of parking its thread. */
    final boolean yields;

    /** The thread running the body (or the adopted thread), null outside it; read by stoppers. */
    volatile Thread thread;

    /** Who ends the actor: its thread or endFromOutside (CellLifecycle's design block); CAS only. */
    @SuppressWarnings("unused") // through GATE
    volatile int gate;

    /** Whether a stopper has interrupted the thread already (it is interrupted once). */
    volatile boolean interrupted;

    /**
     * A stopper woke the body from its wait in receive (stopFromOutside, CellLifecycle's design
     * block) and the body has not run since: the stop is on its way, so a later stopFromOutside
     * neither unparks nor interrupts the thread. The body clears it when it runs again.
     */
    volatile boolean stopWoke;

    /** An adopted thread (Actors.self): it owns the frame from adoption on. */
    boolean adopted;

    /** Messages received and not yet added to the system's counters, below HANDLED_BATCH. */
    byte handledUnflushed;

    /**
     * @param frame the actor's frame
     * @param yields true if the body runs as a continuation on a shared carrier ({@link #pause})
     */
    protected OwnThreadPart(Frame frame, boolean yields) {
        this.frame = frame;
        this.yields = yields;
    }

    /** @return the actor's frame */
    public final Frame frame() {
        return frame;
    }

    /** @return the thread running the body now, or null */
    public final Thread runningThread() {
        return thread;
    }

    /**
     * For a yielding part around its wait: the body leaves its carrier ({@code null}: no thread
     * runs it while it waits, so no stopper interrupts or unparks a carrier that meanwhile runs
     * another body) and resumes on the calling one.
     *
     * @param carrier the carrier that runs the body from now on, or null while it waits
     */
    protected final void carriedBy(Thread carrier) {
        thread = carrier;
    }

    int lvGate() {
        return (int) GATE.getVolatile(this);
    }

    boolean casGate(int expected, int next) {
        return GATE.compareAndSet(this, expected, next);
    }

    void svGate(int next) {
        GATE.setVolatile(this, next);
    }

    /**
     * A yielding part: wait, giving the carrier up, until {@link #wake} or the deadline; may
     * return early (the caller re-checks). A part that does not yield parks the thread.
     *
     * @param blocker the object the wait is for (the cell)
     * @param deadline the {@link System#nanoTime()} to wake at, or {@link Long#MAX_VALUE} for none
     */
    protected void pause(Object blocker, long deadline) {
        if (deadline == Long.MAX_VALUE) {
            LockSupport.park(blocker);
        } else {
            LockSupport.parkNanos(blocker, deadline - System.nanoTime());
        }
    }

    /**
     * Wakes a body waiting in {@link #pause} (a stop, the end from outside). A part that does not
     * yield unparks the thread.
     *
     * @param t the thread that ran the body when the stopper looked
     */
    protected void wake(Thread t) {
        LockSupport.unpark(t);
    }

    /**
     * The actor was ended from outside while this part's thread still runs the body: the
     * scheduler's shutdown should not wait for that thread. Does nothing by default.
     */
    protected void endedFromOutside() {
    }

    /**
     * The loop of the actor's own thread or continuation (design block: the loop): runs the frame's
     * turns, waits while it is inactive, and returns when it terminates or moves to another
     * scheduler. A subclass that is the {@link Runnable} of the actor's thread or continuation
     * inherits this as its {@code run}.
     */
    public final void run() {
        try {
            do {
                frame.execute();
                while (!frame.isActive() && !frame.isTerminated() && frame.schedulerState() == this) {
                    if (yields) {
                        idle();
                    } else {
                        LockSupport.park(this);
                    }
                }
            } while (!frame.isTerminated() && frame.schedulerState() == this);
        } finally {
            ended();
        }
    }

    /**
     * A yielding part's wait between turns while the frame is inactive ({@link #run}): gives the
     * carrier up; may return early (the loop re-checks). Parks the thread by default.
     */
    protected void idle() {
        LockSupport.park(this);
    }

    /** The loop ({@link #run}) has ended: the scheduler's bookkeeping. Does nothing by default. */
    protected void ended() {
    }

    /** The part a cell keeps in its extras on a scheduler whose state is not a part. */
    static final class Detached extends OwnThreadPart {
        Detached(Frame frame) {
            super(frame, false);
        }
    }
}
