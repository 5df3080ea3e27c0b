package io.weft.actors.runtime.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The activation word of one frame (Prokopec 2016, Fig. 1–3, with the per-frame monitor replaced by
 * one CAS word): which thread, if any, owns the frame. Every frame of the runtime keeps its word by
 * extending this class (an actor's cell, a stream stage, the scheduler's calibration probe), so the
 * protocol and its invariants are written once, here; the jcstress tests {@code ActivationWordTests}
 * check them on a bare subclass.
 */
public abstract class ActivationWord {

    /* design
     * States of `active`:
     *   0 = idle: no thread owns the frame and no execute is scheduled.
     *   1 = active: exactly one thread owns it: the frame is scheduled, running, or (a thread-based
     *       actor) its own thread runs it.
     *
     * Transitions (the only writes of `active`):
     *   activateIfIdle   0 -> 1   a sender, after queueing its message: read, then CAS (most sends
     *                             find the frame active and skip the CAS). The winner owns the frame
     *                             and must schedule it (or finish it, if it has stopped).
     *   casActive        0 -> 1   the same without the read (spawn, stop from outside, a waiting
     *                             thread at its deadline, a take-over).
     *   svActive         -> 1     a frame created owned (a thread adopted as an actor).
     *   idleOrReclaim    1 -> 0,  the owner at the end of a turn with nothing left: store 0, then
     *                    maybe    re-read workPending(); if work arrived meanwhile, CAS 0 -> 1 and
     *                    0 -> 1   keep owning it (the caller schedules again). A sender that won
     *                             that race owns it instead.
     *   svIdle           1 -> 0   the owner gives the frame up with a re-check of its own (a
     *                             stopped frame drains, a thread parks in receive).
     * Handing the frame to a scheduler (schedule) or to another scheduler (a move) does not write
     * the word: ownership travels with the call.
     *
     * Invariants:
     *   A1 (one owner; Prokopec 2016, Theorem 1): only the thread that moved the word 0 -> 1, or
     *      was handed the frame while it stayed 1, runs the frame's turn; so turns never overlap,
     *      and everything a turn did happens-before the next turn (the volatile store of 0 and
     *      the CAS that follows it, or the scheduler's hand-off).
     *   A2 (no lost wake-up): a sender's enqueue precedes its read of the word, and the owner's
     *      store of 0 precedes its re-read of the queues; the CAS and the volatile store are full
     *      fences, so either the sender reads 0 and activates, or the owner sees the message and
     *      reclaims the frame. A queue whose offer is not a full fence (an SPSC queue's release
     *      store) needs a fence before activateIfIdle (StageFrame).
     *   A3: the owner writes 0 only when it stops touching the frame's owner-only state; after
     *      the store it touches that state only if its reclaim CAS wins.
     *
     * Accessor names follow the convention of this package (package-info): lv = load volatile,
     * sv = store volatile, cas = compare-and-set.
     */

    private static final VarHandle ACTIVE;

    static {
        try {
            ACTIVE = MethodHandles.lookup().findVarHandle(ActivationWord.class, "active", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Read as a field (a volatile load), written through ACTIVE (CAS, setVolatile). */
    private volatile int active;

    /** For subclasses: a frame starts idle. */
    protected ActivationWord() {
    }

    /** @return whether some thread owns the frame (volatile read) */
    protected final boolean lvActive() {
        return active == 1;
    }

    /**
     * A sender's activation, after it queued its message (A2): wins the frame if it is idle.
     *
     * @return true if the caller now owns the frame and must schedule or finish it
     */
    protected final boolean activateIfIdle() {
        return active == 0 && ACTIVE.compareAndSet(this, 0, 1);
    }

    /**
     * Moves the word 0 -> 1 without reading it first.
     *
     * @return true if the caller now owns the frame
     */
    protected final boolean casActive() {
        return ACTIVE.compareAndSet(this, 0, 1);
    }

    /** Marks a frame created owned by the calling thread (volatile store of 1). */
    protected final void svActive() {
        ACTIVE.setVolatile(this, 1);
    }

    /** The owner gives the frame up (volatile store of 0); the caller re-checks its queues itself. */
    protected final void svIdle() {
        ACTIVE.setVolatile(this, 0);
    }

    /**
     * The owner's end of a turn with nothing left (A2): gives the frame up, then takes it back if
     * {@link #workPending()} finds work that arrived meanwhile.
     *
     * @return true if the caller owns the frame again (it must schedule it), false if it is idle
     *     or another thread owns it now
     */
    protected final boolean idleOrReclaim() {
        ACTIVE.setVolatile(this, 0);
        return workPending() && ACTIVE.compareAndSet(this, 0, 1);
    }

    /**
     * Whether the frame has work that its owner must not leave behind; read by
     * {@link #idleOrReclaim()} after its store of 0.
     *
     * @return true if a queue of the frame is not empty (or the frame has another reason to run)
     */
    protected abstract boolean workPending();
}
