package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Mailbox;
import io.weft.actors.Receive;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Iterator;
import io.weft.actors.runtime.internal.mailbox.Envelope;
import io.weft.actors.runtime.internal.mailbox.Stamped;
import io.weft.actors.runtime.internal.telemetry.JfrEvents;
import io.weft.actors.runtime.internal.telemetry.Telemetry;
import io.weft.actors.runtime.internal.schedule.Speculation;

/**
 * The event-based turn of an actor cell (owner only): execute, the body's start, the driver of
 * composed steps, a batch of messages from the main and opened channels, selective receive with
 * the stash, and the end of a turn (deactivate, reschedule, move, speculate).
 *
 * @param <M> the main channel's message type
 */
abstract class CellTurn<M> extends CellStash<M> {

    /* design
     * Waiting (Haller and Odersky 2009, §3.2): `react` stores a continuation and returns; `loop`, `loopWhile` and
     * `andThen` push hooks that the driver (`resume`) runs whenever no continuation is pending, so
     * no step ever recurses (Haller and Odersky 2009, §3.4). In thread mode the same driver runs on the actor's own
     * thread, and `receive` parks it with active = 0 until a sender activates it (the thread
     * scheduler's `schedule` unparks it). `react` in thread mode throws DetachSignal: the thread
     * unwinds, and the frame is handed to the event scheduler still active, so nothing is reordered.
     *
     * Scheduling hooks (Prokopec 2016, §4-5, docs/scheduling.md):
     *   - moves (weak mobility): `moveRequest` (volatile) is set by ActorSystem.move or moveTo; the
     *     owner takes it in afterTurn while still active and hands the frame to the new scheduler
     *     (initSchedule, then schedule), so senders meanwhile only queue; a turn that starts with a
     *     move pending handles nothing on the old scheduler;
     *   - time-stamping: `stampClock` is null unless the scheduler asked for it (fair scheduler);
     *     then sends wrap items in Stamped, and headStamp/oldestStamp read the queue heads;
     *   - speculation: a Speculation scheduler state may keep the frame for a short spin before
     *     deactivation; if a message arrives, afterTurn returns true and execute runs another turn;
     *   - exec (ForkJoin) goes through Worker.runTask for turn tracking (watchdog), the mini-queue
     *     and local stealing.
     *
     * Scheduler contract (Scheduler's Javadoc): every schedule call made from inside execute
     * (scheduleOwned from afterTurn, a move, a restart) is that execute's last action on the
     * frame: afterTurn returns false and execute returns without touching the cell. So the next
     * execute may start on another thread while this one returns, but turns never overlap; the
     * contract suite's ContractCheckingScheduler asserts exactly that.
     *
     * Hot path shape: the common actor has no extras (one
     * channel, nothing stashed, no supervision or watch state), so processBatch drains the main
     * queue in a loop of its own and afterTurn has a fast path; both fall back to the general code
     * as soon as extras exist. Rare branches of sendMain, deliver and afterTurn are separate
     * methods so that C2 inlines the common path whole (MailboxPolicy.offer likewise).
     * Until C2 has compiled it, the same path runs interpreted (about 5 us per message) and in
     * C1's profiling code (about 0.5 us; both measured on the demo's counter, docs/benchmarks.md,
     * "Ingress"), where every call and VarHandle access costs: so a turn counts its handled
     * messages once (processBatch's `handled`, not a counter call per message), reads whether JFR
     * records MessageHandled once, and deliver calls nothing to unwrap a bare message.
     *
     * Owner writes: every send reads this cell (lifecycle, active, mailbox,
     * system), usually on another core than the owner's. A become continuation therefore stays in
     * `continuation` while its handler runs (deliver), and `sender` is written only when it
     * changes, so a handled message writes nothing here unless the handler installs another
     * continuation (react, become, switchToThread: `continuation == k && persistent` no longer
     * holds after it, and the usual resume runs); a store per message would take the line from
     * the senders' caches. A react continuation is consumed by its message and is cleared, so a
     * loop of reacts stores `continuation` twice per message: it and `sender` are declared in this
     * class, after every field a send reads, which puts them on the cell's last bytes and on
     * another cache line than those fields in 6 of the 8 placements of a cell (CellIngress's
     * design block).
     *
     * Selective receive: a message the current handler does not match is kept in the stash (the
     * save queue, consumer-only), which is searched first, in order, when a handler is set that may
     * match a kept message; CellStash's design block states when that is (K1-K4), its bound and
     * its dead-letter mode.
     */

    // The owner's per-message writes, declared here, after every field of CellIngress and
    // CellCore, so that they take the last bytes of the cell (CellIngress's design block).

    /** The handler waiting for the next message: react's (consumed by it) or become's ({@code persistent}). */
    Receive<Object, ?> continuation;

    /** The sender of the message being handled, or null. */
    ActorRef<?> sender;

    CellTurn(long id, CellHost system, String name, Mailbox mailbox, Scheduler scheduler, Behavior<M> behavior, boolean threadMode) {
        super(id, system, name, mailbox, scheduler, behavior, threadMode);
    }

    // from later parts (CellLifecycle, CellThreadMode)

    /** A handler or body failed: supervision decides, else the actor stops. */
    abstract void fail(Throwable t);

    /** Moves the actor to STOPPED and publishes it (owner). */
    abstract void terminate();

    /** End of a failed turn: hands the frame back to its home scheduler after the backoff. */
    abstract void restartOwned(Extras x);

    /**
     * Runs the body on the actor's own thread.
     *
     * @return false if the actor was ended from outside meanwhile
     */
    abstract boolean runThreadMode();

    /**
     * {@link ActivationWord#idleOrReclaim()}'s re-check (I2), at the end of a turn and before a
     * thread-based actor waits in receive: a queue holds a message, or a request from another
     * thread is waiting for a turn: a stop (STOPPING) or, for an event-based actor, a move. That
     * thread stores its request and then tries to activate the frame; if the owner still held it,
     * the owner's re-check after its idle store must see the request and take the frame back, or
     * the actor would idle with the request unserved and nothing scheduled (the same
     * store-then-read pairing as a send's, ActivationWord A2). Neither can reschedule for ever: a
     * turn in STOPPING always terminates (afterTurnOtherwise) and a frame taken back STOPPED is
     * drained and released; a turn that finds a move takes the request (gasMoveRequest) before it
     * ends. A thread-based actor does not move (its request waits until it is event-based again),
     * so its re-check does not read the request.
     */
    @Override
    protected boolean workPending() {
        return hasPending() || lvLifecycle() >= STOPPING || (moveRequest != null && !threadMode);
    }

    // execute() is CellThreadMode's: a public method inherited from this package-private class
    // gets an access bridge in the public subclass, one more frame on a parked thread-based stack

    /** {@link PoolFrame}: a failure escaped a turn run from a pool task; reported, never rethrown. */
    @Override
    public void executeFailed(Throwable failure) {
        system.reportFailure(cell(), failure);
    }

    void runEventMode() {
        try {
            if (lvLifecycle() == NEW && casLifecycle(NEW, RUNNING)) {
                start();
            }
            if (lvLifecycle() == RUNNING && moveRequest == null) {
                processBatch();
            }
        } catch (Throwable t) {
            fail(t);
        }
    }

    void start() throws Exception {
        system.lifecycleStream().publish(new LifecycleEvent(ref, LifecycleEvent.Kind.STARTED, null));
        Behavior<M> b = behavior;
        behavior = null;
        b.start(this);
        resume();
    }

    /**
     * The driver of Haller and Odersky 2009, §3.4: while no continuation is pending, run the next hook. When
     * nothing is left, the actor's computation has ended and it stops.
     */
    void resume() {
        while (continuation == null && lifecycle == RUNNING && (extras == null || extras.switchTo == null)) {
            Hook h = hooks;
            if (h == null) {
                requestStop();
                return;
            }
            if (h.condition != null && !h.condition.getAsBoolean()) {
                hooks = h.below;
                continue;
            }
            if (!h.repeat) {
                hooks = h.below;
            }
            h.body.run();
        }
    }

    void processBatch() {
        SchedulerState state = schedulerState;
        state.onBatchStart();
        boolean recording = Telemetry.queueTimeWanted(); // MessageHandled enabled: read once per batch
        int handled = 0;
        // The common actor has one channel and nothing stashed (no extras): drain the main queue
        // directly. A handler that stashes, opens a channel or watches creates extras; the batch
        // then goes on in the general loop below. The batch's handled messages are counted once,
        // at its end (a handler that throws counts its own message in handlerFailed, a step
        // composed after a completed handler that throws in resumeAfterHandler).
        try {
            // `lifecycle` is read as a field here and the checks of stopOrSwitchRequested are
            // written out: no call per message besides the poll, deliver and the batch policy
            while (extras == null) {
                if (continuation == null || lifecycle != RUNNING) {
                    return;
                }
                Object item = mailbox.relaxedPoll();
                if (item == null) {
                    return;
                }
                if (deliver(null, item, recording)) {
                    handled++;
                    if (!state.onBatchEvent(this, handled) || lifecycle != RUNNING || moveRequest != null
                            || (extras != null && extras.switchTo != null)) {
                        return;
                    }
                }
            }
        } finally {
            if (handled > 0) {
                system.counters().handled(handled);
            }
        }
        processChannels(state, handled, recording);
    }

    /** The rest of a batch for an actor with extras: opened channels (pending queue) or a stash. */
    void processChannels(SchedulerState state, int handledBefore, boolean recording) {
        int handled = handledBefore;
        EventQueue current = null;
        try {
            while (continuation != null && lvLifecycle() == RUNNING) {
                Extras x = extras;
                if (x != null && x.stashDirty && handleFromStash(recording)) {
                    handled++;
                    if (!state.onBatchEvent(this, handled) || stopOrSwitchRequested()) {
                        break;
                    }
                    continue;
                }
                Object item;
                ChannelQueue<?> on = null;
                if (x == null || x.pending == null) {
                    item = mailbox.relaxedPoll();
                    if (item == null) {
                        break;
                    }
                    current = this;
                } else {
                    if (current == null) {
                        current = nextPending(x);
                        if (current == null) {
                            break;
                        }
                    }
                    if (current == this) {
                        item = mailbox.relaxedPoll();
                    } else {
                        on = (ChannelQueue<?>) current;
                        item = on.queue.relaxedPoll();
                    }
                    if (item == null) {
                        release(x, current);
                        current = null;
                        continue;
                    }
                }
                if (deliver(on, item, recording)) {
                    handled++;
                    if (!state.onBatchEvent(current, handled) || stopOrSwitchRequested()) {
                        break;
                    }
                }
            }
        } finally {
            if (handled > handledBefore) {
                system.counters().handled(handled - handledBefore);
            }
            // also after a failing handler: a supervised actor goes on, so the channel keeps its slot (I3)
            if (current != null && extras != null && extras.pending != null) {
                requeue(extras, current);
            }
        }
    }

    boolean stopOrSwitchRequested() {
        return lvLifecycle() != RUNNING || (extras != null && extras.switchTo != null) || moveRequest != null;
    }

    /** Polls the next non-empty channel from the pending queue, adding the main channel first if needed. */
    EventQueue nextPending(Extras x) {
        if (!x.mainInPending && !mailbox.isEmpty()) {
            x.mainInPending = true;
            x.pending.offer(this);
        }
        EventQueue q = x.pending.poll();
        if (q == this) {
            x.mainInPending = false;
        }
        return q;
    }

    /** A channel taken off the pending queue turned out empty: give up its slot (I3). */
    void release(Extras x, EventQueue q) {
        if (q instanceof ChannelQueue<?> c) {
            c.clearQueued();
            if (!c.queue.isEmpty() && c.markQueued()) {
                x.pending.offer(c);
            }
        }
    }

    /** The batch ended while holding {@code q}: put it back if it still has messages. */
    void requeue(Extras x, EventQueue q) {
        if (q == this) {
            if (!x.mainInPending && !mailbox.isEmpty()) {
                x.mainInPending = true;
                x.pending.offer(this);
            }
        } else if (q instanceof ChannelQueue<?> c) {
            if (!c.queue.isEmpty()) {
                x.pending.offer(c);
            } else {
                release(x, c);
            }
        }
    }

    /**
     * Offers one message to the continuation. A become continuation stays installed while its
     * handler runs, and unless the handler installs another one, this writes nothing to the cell:
     * senders read this cell (active, lifecycle, mailbox) on every send, so a store per message
     * would take its cache lines from the senders' caches each time (design block: Owner writes).
     * The caller counts the handled message (once per batch), except when a step composed after
     * the handler throws ({@link #resumeAfterHandler} counts it then).
     *
     * @param recording whether JFR records MessageHandled (read once per batch by the caller)
     * @return true if it was handled, false if it was stashed
     */
    boolean deliver(ChannelQueue<?> on, Object item, boolean recording) {
        Receive<Object, ?> k = continuation;
        boolean keep = persistent;
        Object message = item;
        ActorRef<?> from = null;
        if (item instanceof Envelope || item instanceof Stamped) {
            message = Envelope.unwrap(item); // most messages are queued bare: no call on their path
            from = Envelope.senderOf(item);
        }
        if (message instanceof SystemSignal signal) {
            signal.raise(); // fails this actor on its own turn (Supervision)
        }
        if (message instanceof CellTimers.Entry timer) {
            message = timer.owner.accept(timer); // the owner's check (CellTimers' design block)
            if (message == null) {
                return false; // a replaced or cancelled timer's message: dropped
            }
            item = message;
            from = Envelope.senderOf(item);
        }
        if (!keep) {
            continuation = null; // a react continuation is consumed by its message (persistent is already false)
        }
        if (sender != from) {
            sender = from; // most messages have no sender, and the field is already null
        }
        Object r;
        JfrEvents.MessageHandled event = recording ? Telemetry.beginHandled() : null;
        try {
            r = k.tryApply(on == null ? null : on.channel(), message);
        } catch (Throwable t) {
            handlerFailed(k, keep);
            throw t;
        }
        if (r == Receive.NO_MATCH) {
            unmatched(k, keep, on, item);
            return false;
        }
        if (event != null) {
            endHandled(event, on, item, message);
        }
        if (keep && continuation == k && persistent) {
            if (sender != null) {
                sender = null;
            }
            stashMayMatch();
        } else {
            resumeAfterHandler(); // a react handled, or the handler called react, become or switchToThread
        }
        return true;
    }

    // The rarer steps of deliver are out of line, so that its compiled code holds only the common
    // path (with the handler inlined into it); sendMain, MailboxPolicy.offer, Metrics.sent and
    // afterTurn are split the same way, so that the JIT can inline them whole.

    /** The handler threw: keep its continuation for a RESUME (a stop or restart drops it). */
    void handlerFailed(Receive<Object, ?> k, boolean keep) {
        sender = null;
        system.counters().handled();
        if (continuation == null) {
            continuation = k;
            persistent = keep;
        }
    }

    /** The continuation does not match the message: keep the continuation, keep the message (CellStash). */
    void unmatched(Receive<Object, ?> k, boolean keep, ChannelQueue<?> on, Object item) {
        continuation = k;
        persistent = keep;
        sender = null;
        keep(on, item, k);
    }

    void endHandled(JfrEvents.MessageHandled event, ChannelQueue<?> on, Object item, Object message) {
        long queued = item instanceof Stamped st && stampClock == null ? System.nanoTime() - st.stamp() : -1;
        Telemetry.endHandled(event, ref, on, message, queued);
    }

    /**
     * The continuation was set, or a become handled a message (its state changed): if a kept
     * message may now match it (CellStash K2), the stash is searched again before the queues.
     */
    void stashMayMatch() {
        Extras x = extras;
        if (x != null && mustSearch(x, continuation)) {
            x.stashDirty = true;
        }
    }

    /**
     * The handler set a new continuation or none: run the composed steps (andThen, loop). The
     * handler has completed, so if a step after it throws, its message is counted here: deliver
     * then returns no result for the batch to count, and handlerFailed counts only a handler's
     * own failure.
     */
    void resumeAfterHandler() {
        try {
            // the steps composed after this handler (andThen, loop) still see its sender (seed
            // 000 §3.4: awaitPing andThen sendPong, where sendPong replies to the Ping's sender)
            resume();
        } catch (Throwable t) {
            system.counters().handled();
            throw t;
        } finally {
            if (sender != null) {
                sender = null;
            }
        }
    }

    /** Searches the stash, in arrival order, for the first message the continuation matches. */
    boolean handleFromStash(boolean recording) {
        Extras x = extras;
        x.stashDirty = false;
        if (x.stash == null || x.stash.isEmpty()) {
            return false;
        }
        Receive<Object, ?> k = continuation;
        for (Iterator<Object[]> it = x.stash.iterator(); it.hasNext(); ) {
            Object[] saved = it.next();
            ChannelQueue<?> on = (ChannelQueue<?>) saved[0];
            Object item = saved[1];
            if (k.isDefinedAt(on == null ? null : on.channel(), Envelope.unwrap(item))) {
                it.remove();
                unkept(x);
                if (!deliver(on, item, recording)) {
                    throw new IllegalStateException("handler matched a message on isDefinedAt but not on apply: " + Envelope.unwrap(item));
                }
                return true;
            }
        }
        checked(x, k); // K1: a full search found nothing
        return false;
    }

    boolean hasWorkLeft() {
        if (hasPending()) {
            return true;
        }
        Extras x = extras;
        return x != null && x.stashDirty && x.stash != null && !x.stash.isEmpty() && continuation != null;
    }

    /**
     * End of execute (Prokopec 2016, Fig. 2 lines 5-11).
     *
     * @return true if the caller should run another turn at once, still owning the frame (a
     *     message arrived while speculating, Prokopec 2016, §5.4)
     */
    boolean afterTurn() {
        if (extras == null && moveRequest == null && lvLifecycle() == RUNNING) {
            // the common end of a turn, as below without restart, switch, move or stash
            if (hasPending()) {
                scheduleOwned();
                return false;
            }
            return spinOrRelease();
        }
        return afterTurnOtherwise();
    }

    /** {@link #afterTurn} when the actor stops, restarts, moves, switches mode or has extras. */
    boolean afterTurnOtherwise() {
        if (lvLifecycle() == STOPPING) {
            terminate();
        }
        Extras x = extras;
        if (x != null && x.restartPending) {
            x.restartPending = false;
            if (lvLifecycle() == NEW) {
                restartOwned(x);
                return false;
            }
        }
        if (lvLifecycle() == RUNNING) {
            Scheduler next = null;
            if (x != null && x.switchTo != null) {
                next = x.switchTo;
                x.switchTo = null;
            } else if (moveRequest != null && !threadMode) {
                next = gasMoveRequest(null);
            }
            if (next != null && next != scheduler) {
                scheduler = next;
                stampClock = null;
                next.initSchedule(this);
                scheduleOwned();
                return false;
            }
        }
        if (lvLifecycle() == STOPPED) {
            // Not rescheduled: a thread scheduler ends the actor's thread once it is terminated.
            drainStoppedAndRelease();
            return false;
        } else if (hasWorkLeft()) {
            scheduleOwned();
            return false;
        }
        return spinOrRelease();
    }

    /**
     * The end of a turn with nothing left to do: spin for the next message if speculation says so
     * (Prokopec 2016, §5.4), else deactivate.
     *
     * @return true if a message arrived while spinning (the caller runs another turn)
     */
    boolean spinOrRelease() {
        if (schedulerState instanceof Speculation sp && !threadMode && sp.awaitArrival(this)) {
            return true;
        }
        releaseOrReschedule();
        return false;
    }

    /** Deactivates the frame, then takes it back if a message arrived meanwhile (I2). */
    void releaseOrReschedule() {
        mailboxIdle();
        if (idleOrReclaim()) {
            if (lvLifecycle() == STOPPED) {
                drainStoppedAndRelease();
                return;
            }
            scheduleOwned();
        }
    }
}
