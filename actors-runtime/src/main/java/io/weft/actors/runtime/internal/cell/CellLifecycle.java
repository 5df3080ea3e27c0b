package io.weft.actors.runtime.internal.cell;

import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.runtime.internal.telemetry.Listeners;
import io.weft.actors.Mailbox;
import io.weft.actors.spi.Scheduler;
import java.util.concurrent.locks.LockSupport;

/**
 * Failure, restart and stop of an actor cell: supervision decisions, the restart hand-off, stop
 * requests from inside and outside, the take-over of a thread that does not stop, termination and
 * the drain of its mail to dead letters.
 *
 * @param <M> the main channel's message type
 */
abstract class CellLifecycle<M> extends CellTurn<M> {

    /* design
     * Failure (Supervision, Deathwatch): `fail` asks the actor's Supervision, if any. Resume keeps the
     * failed handler as the continuation; restart moves RUNNING -> NEW with a new behavior and keeps
     * the frame active through the backoff (senders only enqueue; mailbox and stash are kept), then
     * `afterTurn` hands it to the timer and its home scheduler, and the next turn starts it again.
     * A SystemSignal in the main queue (a linked failure, a child's escalation) is raised by the
     * owner's turn before any handler sees it. `terminate` tells Deathwatch after STOPPED is set.
     *
     * Stopping a thread whose body blocks outside receive (close, ActorSystem.stop): receive wakes a
     * thread parked in it (ActorStoppedException), but a body blocked anywhere else (sleep, a lock, a
     * queue, I/O) keeps the frame. So stopFromOutside interrupts the actor's own thread once, when it
     * holds the frame (the activation CAS failed: the thread is not parked in receive). An adopted
     * thread is not the system's and is never interrupted, nor is the carrier of a body run as a
     * continuation (OwnThreadPart.yields): a stop resumes such a body parked in receive through
     * the activation, and one busy elsewhere is ended from outside after the grace period. A body that returns ends the actor as
     * usual. One that does not return within the grace period (Settings.stopGracePeriod; for an
     * adopted thread at most 100 ms, WeftSystem) is ended from outside by endFromOutside, which takes the frame over:
     *   - the exit gate (OwnThreadPart.gate, CAS only) decides who finishes the actor: the thread, on its
     *     way back from the body (runThreadMode), in receive (checkNotStopped, adopted) or in
     *     Actors.release (finishAdopted), moves it GATE_OPEN -> GATE_RETURNED; endFromOutside moves
     *     it GATE_OPEN -> GATE_TAKEN. Exactly one wins. A thread that finds GATE_TAKEN returns
     *     without touching the frame again: execute skips afterTurn, so it neither drains the
     *     queues nor writes `active`;
     *   - `active`: once the lifecycle is STOPPING, receive never gives the frame up (receiveUntil
     *     returns still owning, and the next check throws), so the thread has held active = 1 since
     *     the stop was requested, and no sender can win the activation CAS while the frame is taken
     *     over; endFromOutside inherits that ownership (or takes it, 0 -> 1, if the thread was still
     *     parked), terminates (STOPPED, onStop hooks on the calling thread, mail to dead letters,
     *     watchers told, table slot freed), then releases it like any owner of a STOPPED frame, so a
     *     late sender drains its own message (I4);
     *   - what the thread can still do harms nothing: receive throws ActorStoppedException before it
     *     touches a queue (checkNotStopped comes first in every round, and again after user code in
     *     the stash search); a message its receive handler declined while stopping goes to dead
     *     letters, not to the stash; its sends are dead letters like anyone's; a failure it throws
     *     is logged, not reported as the actor's (the actor has stopped); the scheduler's thread loop
     *     ends because the frame is terminated. The one unchecked case is a thread (or a sender that
     *     won the activation CAS before the stop) descheduled for the whole grace period between
     *     two adjacent steps of the runtime's own code.
     *   - the onStop hooks of a taken-over actor run on the closing thread, concurrently with the
     *     runaway body (closing a resource the body is blocked on is the usual way to free it).
     */

    CellLifecycle(long id, CellHost system, String name, Mailbox mailbox, Scheduler scheduler, Behavior<M> behavior, boolean threadMode) {
        super(id, system, name, mailbox, scheduler, behavior, threadMode);
    }

    void fail(Throwable t) {
        if (t == DetachSignal.INSTANCE) {
            throw (DetachSignal) t;
        }
        system.reportFailure(cell(), t);
        Extras x = extras;
        if (x != null && x.supervision != null && lvLifecycle() == RUNNING && x.supervision.onFailure(cell(), t)) {
            return;
        }
        extras().failure = t;
        requestStop();
    }

    /** Sets the supervision state; called once by spawn, before the first activation. */
    public void supervise(Supervisor s) {
        extras().supervision = s;
    }

    /** @return whether a failed handler can be resumed: event-based, with a continuation kept */
    public boolean canResume() {
        return !threadMode && continuation != null;
    }

    /**
     * Owner, after a failure: forget the computation, keep the mailbox and the stash, and start
     * {@code next} after {@code delayNanos}. The frame stays active meanwhile, so nothing runs.
     *
     * @return false if a stop was requested meanwhile (the actor stops instead)
     */
    @SuppressWarnings("unchecked")
    public boolean prepareRestart(Behavior<?> next, long delayNanos) {
        if (!casLifecycle(RUNNING, NEW)) {
            return false;
        }
        continuation = null;
        persistent = false;
        hooks = null;
        sender = null;
        cancelTimers(); // the next incarnation starts its own
        runStopHooks(); // this incarnation ends; the next one registers its own
        behavior = (Behavior<M>) next;
        Extras x = extras();
        x.threadBody = null;
        x.switchTo = null;
        x.stashDirty = x.stash != null && !x.stash.isEmpty();
        x.restartPending = true;
        x.restartDelayNanos = delayNanos;
        return true;
    }

    /**
     * Owner: hands {@code state} to this actor's next incarnation, which reads it with
     * {@link #handedOver()}. An actor that has handed something over keeps its children through a
     * restart (Supervision), because its next incarnation takes them over with that state: a pool
     * router hands over its membership, and its routees are its children.
     *
     * @param state what the next incarnation takes over, or null to hand over nothing
     */
    public void handOver(Object state) {
        extras().handOver = state;
    }

    /**
     * Owner: what an earlier incarnation handed over; kept through restarts, replaced by the next
     * {@link #handOver(Object)}.
     *
     * @return that state, or null if none was handed over
     */
    public Object handedOver() {
        Extras x = extras;
        return x == null ? null : x.handOver;
    }

    /** End of a failed turn: hand the still-active frame back to its home scheduler, after the backoff. */
    void restartOwned(Extras x) {
        Supervisor s = x.supervision;
        threadMode = s.threadMode();
        scheduler = s.home();
        s.home().initSchedule(this); // a thread-based actor gets a new thread
        long delay = x.restartDelayNanos;
        if (delay <= 0) {
            scheduleOwned();
            return;
        }
        try {
            system.timer().schedule(this::scheduleOwned, delay, java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (RuntimeException rejected) {
            requestStop();
            terminateInline();
        }
    }

    /** @return the failure that stopped this actor, or null; read after {@link #isTerminated()} */
    public Throwable failureCause() {
        Extras x = extras;
        return x == null ? null : x.failure;
    }

    /** Asks the actor to stop after its current handler; idempotent; any thread. */
    void requestStop() {
        for (;;) {
            int s = lvLifecycle();
            if (s >= STOPPING) {
                return;
            }
            if (casLifecycle(s, STOPPING)) {
                return;
            }
        }
    }

    /**
     * Stop from outside the actor: request, then make sure someone runs the frame to finish it. A
     * thread-based actor's own thread that holds the frame (blocked or busy outside receive) is
     * interrupted, once; one parked in receive is woken instead (design block).
     *
     * @return the thread that was interrupted now, or null
     */
    public Thread stopFromOutside() {
        requestStop();
        OwnThreadPart x = ownPartIfAny();
        if (x != null && x.stopWoke) {
            return null; // woken from receive by a stop and not run since (below): nothing to add
        }
        Thread t = x == null ? null : x.thread;
        boolean wasIdle = casActive();
        if (wasIdle) {
            if (t != null && !x.yields && !x.adopted) {
                // woken by its own scheduler's schedule below (an adopted thread's is unparked
                // below); set before the wake, so the body's clear when it runs comes after it
                x.stopWoke = true;
            }
            if (lvLifecycle() == STOPPED) {
                drainStoppedAndRelease();
            } else {
                scheduleOwned();
            }
        }
        if (t == null) {
            return null;
        }
        if (x.yields) {
            // a continuation on a shared carrier: the carrier is not the actor's to interrupt, and
            // a body waiting in receive was resumed by the activation above
            return null;
        }
        if (x.stopWoke) {
            // woken from receive by a stop and not run since (a close of many parked actors calls
            // this again before the carriers reach them): the stop is on its way
            return null;
        }
        LockSupport.unpark(t);
        if (!wasIdle && !x.adopted && !x.interrupted && t != Thread.currentThread() && t == x.thread && !isTerminated()) {
            x.interrupted = true;
            t.interrupt();
            return t;
        }
        return null;
    }

    /**
     * Ends this actor from outside while its own thread still runs the body: the stop grace period
     * has passed since {@link #stopFromOutside()} (or the thread is an adopted one). Takes the frame
     * over (the exit gate, design block), terminates it (dead letters, watchers, STOPPED, table slot),
     * and releases it. Does nothing if the thread came back meanwhile or the actor has ended.
     *
     * @return the thread left running, or null if nothing was taken over
     */
    public Thread endFromOutside() {
        OwnThreadPart x = ownPartIfAny();
        Thread t = x == null ? null : x.thread;
        if (t == null || lvLifecycle() != STOPPING || !x.casGate(GATE_OPEN, GATE_TAKEN)) {
            return null;
        }
        // The thread has held `active` since the stop (receive keeps it while stopping); if it was
        // still parked in receive, take it here. Either way no sender can activate the frame now.
        casActive();
        try {
            terminate();
        } finally {
            drainStoppedAndRelease();
            x.wake(t); // a thread parked in receive sees STOPPED and throws
            x.endedFromOutside(); // its scheduler's shutdown does not wait for this thread
        }
        return t;
    }

    void terminate() {
        svLifecycle(STOPPED);
        ref.cellStopped(); // a router's ref withdraws its routes, even stopped before its first turn
        continuation = null;
        persistent = false;
        hooks = null;
        cancelTimers();
        runStopHooks(); // after STOPPED: what a hook sends to this actor is a dead letter
        drainToDeadLetters();
        // name first (a STOPPED listener may reuse it), table last (close() waits for an empty
        // table, so every STOPPED is published before close returns)
        system.releaseName(cell());
        system.terminated(cell(), failureCause()); // watchers told before STOPPED is published
        Listeners<LifecycleEvent> lifecycle = system.lifecycleStream();
        if (lifecycle.wanted()) { // no event built for no one
            lifecycle.publish(new LifecycleEvent(ref, LifecycleEvent.Kind.STOPPED, null));
        }
        system.unregister(cell());
    }

    /** Cancels every timer of the actor (stop, restart); its queued timer messages become stale. */
    void cancelTimers() {
        Extras x = extras;
        if (x != null && x.timers != null) {
            x.timers.cancelAllOnEnd();
        }
    }

    /** Runs and forgets the onStop hooks, last registered first; a hook that throws is logged. */
    void runStopHooks() {
        Extras x = extras;
        if (x == null || x.stopHooks == null) {
            return;
        }
        Runnable hook;
        while ((hook = x.stopHooks.pollLast()) != null) {
            try {
                hook.run();
            } catch (Throwable t) {
                org.slf4j.LoggerFactory.getLogger(Cell.class).warn("onStop hook of {} threw", ref, t);
            }
        }
    }

    /** The scheduler is gone: finish the actor on the calling thread, which owns the frame. */
    void terminateInline() {
        if (lvLifecycle() != STOPPED) {
            terminate();
        } else {
            drainToDeadLetters();
        }
        svIdle();
    }

    void drainToDeadLetters() {
        DeadLetter.Reason reason = stoppedReason();
        Object item;
        Extras x = extras;
        // the stash first: its messages arrived before anything still in the queues
        if (x != null && x.stash != null) {
            int kept = x.stash.size();
            for (Object[] saved : x.stash) {
                deadLetter(saved[1], reason);
            }
            x.stash.clear();
            clearedKept(x, kept);
        }
        while ((item = mailbox.relaxedPoll()) != null || !mailbox.isEmpty()) {
            if (item != null) {
                deadLetter(item, reason);
            } else {
                Thread.onSpinWait();
            }
        }
        if (x != null) {
            if (x.channels != null) {
                for (ChannelQueue<?> c : x.channels) {
                    while ((item = c.queue.relaxedPoll()) != null || !c.queue.isEmpty()) {
                        if (item != null) {
                            deadLetter(item, reason);
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                }
            }
            if (x.pending != null) {
                x.pending.clear();
                x.mainInPending = false;
            }
        }
    }
}
