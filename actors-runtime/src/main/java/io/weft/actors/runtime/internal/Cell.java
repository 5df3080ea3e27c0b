package io.weft.actors.runtime.internal;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorStoppedException;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Channel;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Mailbox;
import io.weft.actors.Receive;
import io.weft.actors.ReceiveTimeoutException;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.jctools.queues.MessagePassingQueue;

/**
 * One actor: its frame (Prokopec 2016, §3.1), its context, and its main channel's queue.
 *
 * <p>Not a {@code ForkJoinTask} itself: the ForkJoin scheduler wraps each push to its pool in a
 * fresh {@link FrameTask} (see there why a task object must never be pushed twice).
 *
 * @param <M> the main channel's message type
 */
public final class Cell<M> extends ActivationWord implements Frame, ActorContext<M>, EventQueue, Runnable {

    /* design
     * Activation: the cell's word is its ActivationWord (states, transitions and invariants A1-A3
     * are stated there, once). How the cell uses it:
     *
     *   send:    queue.offer(msg) [a full fence]; activateIfIdle(): schedule (or, STOPPED, drain).
     *   execute: run the body / a batch; then
     *            - scheduler switch requested: keep active, hand the frame to the new scheduler;
     *            - work left (a queue non-empty, or stash to re-examine): keep active, schedule again;
     *            - else idleOrReclaim() (workPending = hasPending), and schedule again if it reclaims.
     *
     * Invariants:
     *   I1 (serializability, Prokopec 2016, Theorem 1): ActivationWord A1; at most one handler runs.
     *   I2 (no lost wake-up, Lemma 2): ActivationWord A2, with the mailbox's offer as the sender's
     *      full fence (a JCTools MPSC offer is a CAS or an atomic exchange).
     *   I3 (pending queue, Lemma 1): an opened channel is in `pending` at most once, guarded by its
     *      `queued` flag (ChannelQueue); the main channel is put there only by the owner
     *      (`mainInPending`). Single-channel actors have no pending queue at all: the main queue is
     *      drained directly, which is the common case and costs no extra object.
     *   I4 (lifecycle): NEW -> RUNNING -> STOPPING -> STOPPED, or NEW -> STOPPING; only the owner
     *      moves to STOPPED. After STOPPED no handler runs; anything still queued, and anything
     *      queued later, is drained to dead letters by the owner of the next activation.
     *   I5 (owner-only context): the ActorContext methods that read or write owner-only fields
     *      (the list in ActorContext's Javadoc) run checkOwner first: the calling thread must be
     *      running this actor's turn (WeftSystem.current() == this) or be its own or adopted thread
     *      (Extras.thread); any other thread gets IllegalStateException, so a kept context cannot
     *      write the continuation, hooks or sender behind the owner's back. stop() is any-thread:
     *      from outside it activates the frame (stopFromOutside), or an idle actor never stops.
     *
     * Scheduler contract (Scheduler's Javadoc): every schedule call made from inside execute
     * (scheduleOwned from afterTurn, a move, a restart) is that execute's last action on the
     * frame: afterTurn returns false and execute returns without touching the cell. So the next
     * execute may start on another thread while this one returns, but turns never overlap; the
     * contract suite's ContractCheckingScheduler asserts exactly that.
     *
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
     * Hot path shape: the common actor has no extras (one
     * channel, nothing stashed, no supervision or watch state), so processBatch drains the main
     * queue in a loop of its own and afterTurn has a fast path; both fall back to the general code
     * as soon as extras exist. Rare branches of sendMain, deliver and afterTurn are separate
     * methods so that C2 inlines the common path whole (MailboxPolicy.offer likewise).
     *
     * Owner writes: every send reads this cell (lifecycle, active, mailbox,
     * system), usually on another core than the owner's. A become continuation therefore stays in
     * `continuation` while its handler runs (deliver), and `sender` is written only when it
     * changes, so a handled message writes nothing here unless the handler installs another
     * continuation (react, become, switchToThread: `continuation == k && persistent` no longer
     * holds after it, and the usual resume runs); a store per message would take the line from
     * the senders' caches. A react continuation is consumed by its message and is cleared.
     *
     * Selective receive: a message the current handler does not match is moved to the stash (the
     * save queue, consumer-only), which is searched first, in order, whenever a new handler is set.
     * Synchronization constraints and guards (Karmani et al. 2009, §4.2) use exactly this save queue.
     *
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
     * thread is not the system's and is never interrupted. A body that returns ends the actor as
     * usual. One that does not return within the grace period (Settings.stopGracePeriod; for an
     * adopted thread at most 100 ms, WeftSystem) is ended from outside by endFromOutside, which takes the frame over:
     *   - the exit gate (Extras.gate, CAS only) decides who finishes the actor: the thread, on its
     *     way back from the body (runThreadMode), in receive (checkNotStopped, adopted) or in
     *     Actors.release (finishAdopted), moves it GATE_OPEN -> GATE_RETURNED; endFromOutside moves
     *     it GATE_OPEN -> GATE_TAKEN. Exactly one wins. A thread that finds GATE_TAKEN returns
     *     without touching the frame again: execute skips afterTurn, so it neither drains the
     *     queues nor writes `active`;
     *   - `active`: once the lifecycle is STOPPING, receive never gives the frame up (awaitActivation
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

    static final int NEW = 0;
    static final int RUNNING = 1;
    static final int STOPPING = 2;
    static final int STOPPED = 3;

    private static final VarHandle LIFECYCLE;
    private static final VarHandle MOVE;
    private static final VarHandle GATE;
    private static final int GATE_OPEN = 0;
    private static final int GATE_RETURNED = 1;
    private static final int GATE_TAKEN = 2;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            LIFECYCLE = l.findVarHandle(Cell.class, "lifecycle", int.class);
            MOVE = l.findVarHandle(Cell.class, "moveRequest", Scheduler.class);
            GATE = l.findVarHandle(Extras.class, "gate", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id;
    private final WeftSystem system;
    private final LocalRef<M> ref;
    private final MessagePassingQueue<Object> mailbox;

    @SuppressWarnings("unused") // through LIFECYCLE
    private volatile int lifecycle;

    /** Written by the owner while active; read by a sender after it wins the activation CAS. */
    private Scheduler scheduler;
    private SchedulerState schedulerState;
    /** Set by a time-stamping scheduler at initSchedule (Prokopec 2016, §4); null on the default path. */
    private LongSupplier stampClock;
    /** A move requested from outside the actor (ActorSystem.move), taken by the owner in afterTurn. */
    @SuppressWarnings("unused") // through MOVE
    private volatile Scheduler moveRequest;

    // Owner-only state (I1): plain fields, published between owners by the active flag.
    private Behavior<M> behavior;
    private boolean threadMode;
    /** Whether {@code continuation} stays after it handles a message ({@link #become}). */
    private boolean persistent;
    private Receive<Object, ?> continuation;
    private Hook hooks;
    private ActorRef<?> sender;
    private Extras extras;

    /** A step to run when no continuation is pending (andThen, loop, loopWhile). */
    private static final class Hook {
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
    private static final class Extras {
        ArrayDeque<Object[]> stash;
        boolean stashDirty;
        Queue<EventQueue> pending;
        boolean mainInPending;
        List<ChannelQueue<?>> channels;
        Runnable threadBody;
        Scheduler switchTo;
        /** The actor's own thread while it runs the body (or the adopted thread); read by stoppers. */
        volatile Thread thread;
        boolean adopted;
        /** Who ends a thread-based actor: its thread or endFromOutside (GATE, design block). */
        @SuppressWarnings("unused") // through GATE
        volatile int gate;
        /** Whether a stopper has interrupted the thread already (it is interrupted once). */
        volatile boolean interrupted;
        // supervision and death watch (Supervision, Deathwatch)
        Supervision supervision;
        Throwable failure;
        boolean restartPending;
        long restartDelayNanos;
        // hooks run once when this incarnation ends (onStop), last registered first
        ArrayDeque<Runnable> stopHooks;
    }

    Cell(long id, WeftSystem system, String name, Mailbox mailbox, Scheduler scheduler, Behavior<M> behavior, boolean threadMode) {
        this.id = id;
        this.system = system;
        this.ref = name == null ? new LocalRef<>(this) : new LocalRef.Named<>(this, name);
        this.mailbox = MailboxPolicy.of(mailbox).newQueue();
        this.scheduler = scheduler;
        this.behavior = behavior;
        this.threadMode = threadMode;
    }

    // ------------------------------------------------------------------ identity

    long id() {
        return id;
    }

    WeftSystem weftSystem() {
        return system;
    }

    @Override
    public ActorRef<?> ref() {
        return ref;
    }

    LocalRef<M> localRef() {
        return ref;
    }

    @Override
    public String toString() {
        return ref.toString();
    }

    // ------------------------------------------------------------------ sending (any thread)

    void sendMain(Object message, ActorRef<?> replyTo) {
        Object item = item(message, replyTo);
        if (loLifecycle() == STOPPED) {
            deadLetter(item, stoppedReason());
            return;
        }
        if (MailboxPolicy.offer(this, mailbox, item)) {
            system.metrics().sent();
            activateFromSend();
        }
    }

    /** What a send queues: the message, with its reply-to in an Envelope, stamped if wanted. */
    private Object item(Object message, ActorRef<?> replyTo) {
        Objects.requireNonNull(message, "message");
        Object item = replyTo == null ? message : new Envelope(message, replyTo);
        return stampClock != null || Telemetry.queueTimeWanted() ? stamped(item) : item;
    }

    /**
     * Wraps an item in its enqueue time: the time-stamping scheduler's clock (Prokopec 2016, §4), or
     * System.nanoTime() while JFR records MessageHandled (queue time). Out of line: the default
     * send path stamps nothing, and a small sendMain is inlined into the caller.
     */
    private Object stamped(Object item) {
        LongSupplier clock = stampClock;
        return new Stamped(item, clock != null ? clock.getAsLong() : System.nanoTime());
    }

    <T> void sendOn(ChannelQueue<T> channel, Object message, ActorRef<?> replyTo) {
        Object item = item(message, replyTo);
        if (loLifecycle() == STOPPED) {
            deadLetter(item, stoppedReason());
            return;
        }
        if (!MailboxPolicy.offer(this, channel.queue, item)) {
            return;
        }
        system.metrics().sent();
        if (channel.markQueued()) {
            channel.pending.offer(channel);
        }
        activateFromSend();
    }

    private void activateFromSend() {
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
    private void drainStoppedAndRelease() {
        do {
            drainToDeadLetters();
            svIdle();
        } while (hasQueued() && casActive());
    }

    /** Whether any channel (main or opened) holds a message, regardless of the pending queue. */
    private boolean hasQueued() {
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

    /** Activates the frame if idle (spawn, stop requests). */
    void activate() {
        if (casActive()) {
            if (lvLifecycle() == STOPPED) {
                drainStoppedAndRelease();
                return;
            }
            scheduleOwned();
        }
    }

    /** Hands the owned, active frame to its scheduler; if that fails, cleans up on this thread. */
    private void scheduleOwned() {
        Scheduler s = scheduler;
        try {
            s.schedule(this);
        } catch (RuntimeException rejected) {
            // Nothing can run the actor any more. While the system closes, that is its scheduler
            // shutting down; otherwise the scheduler failed (a custom policy's bug, a full pool
            // queue), and the actor stops as a failure with that cause, reported, not silently.
            if (!system.isClosed()) {
                system.reportFailure(this, rejected);
                extras().failure = rejected;
            }
            requestStop();
            terminateInline();
        }
    }

    // ------------------------------------------------------------------ accessors (package-info's convention)

    /** Opaque read of the lifecycle: enough where a stale value only delays a check to the next one. */
    private int loLifecycle() {
        return (int) LIFECYCLE.getOpaque(this);
    }

    private int lvLifecycle() {
        return (int) LIFECYCLE.getVolatile(this);
    }

    private boolean casLifecycle(int expected, int next) {
        return LIFECYCLE.compareAndSet(this, expected, next);
    }

    private void svLifecycle(int next) {
        LIFECYCLE.setVolatile(this, next);
    }

    private Scheduler gasMoveRequest(Scheduler next) {
        return (Scheduler) MOVE.getAndSet(this, next);
    }

    private void svMoveRequest(Scheduler target) {
        MOVE.setVolatile(this, target);
    }

    private static int lvGate(Extras x) {
        return (int) GATE.getVolatile(x);
    }

    private static boolean casGate(Extras x, int expected, int next) {
        return GATE.compareAndSet(x, expected, next);
    }

    private static void svGate(Extras x, int next) {
        GATE.setVolatile(x, next);
    }

    /** {@link ActivationWord#idleOrReclaim()}'s re-check: a queue holds a message (I2). */
    @Override
    protected boolean workPending() {
        return hasPending();
    }

    private DeadLetter.Reason stoppedReason() {
        return system.isClosed() ? DeadLetter.Reason.SYSTEM_CLOSED : DeadLetter.Reason.RECIPIENT_STOPPED;
    }

    void deadLetter(Object item, DeadLetter.Reason reason) {
        system.deadLetterOffice().publish(Envelope.unwrap(item), ref, Envelope.senderOf(item), reason);
    }

    // ------------------------------------------------------------------ Frame (scheduler side)

    @Override
    public void execute() {
        Thread thread = Thread.currentThread();
        do {
            Cell<?> previous = WeftSystem.enter(thread, this);
            try {
                if (threadMode) {
                    if (!runThreadMode()) {
                        return; // the actor was ended from outside: this thread no longer owns the frame
                    }
                } else {
                    runEventMode();
                }
            } finally {
                WeftSystem.leave(thread, previous);
            }
        } while (afterTurn());
    }

    @Override
    public void run() {
        execute();
    }

    @Override
    public Runnable task() {
        return this;
    }

    @Override
    public SchedulerState schedulerState() {
        return schedulerState;
    }

    @Override
    public void schedulerState(SchedulerState state) {
        this.schedulerState = Objects.requireNonNull(state, "state");
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public boolean isActive() {
        return lvActive();
    }

    @Override
    public boolean hasPending() {
        if (!mailbox.isEmpty()) {
            return true;
        }
        Extras x = extras;
        return x != null && x.pending != null && !x.pending.isEmpty();
    }

    @Override
    public boolean isTerminated() {
        return lvLifecycle() == STOPPED;
    }

    /**
     * Runs this frame's turn from a {@link FrameTask} of the ForkJoin scheduler's pool: on one of
     * its workers with turn tracking (blocking watchdog), mini-queue and local steal. Never throws:
     * an escaping failure is reported, not left in the pool's task.
     *
     * @param w the pool worker running the task, or null on any other thread
     */
    void runFromPool(ForkJoinScheduler.Worker w) {
        try {
            if (w != null) {
                w.runTask(this);
            } else {
                execute();
            }
        } catch (Throwable t) {
            system.reportFailure(this, t);
        }
    }

    /** @return the class of the actor's body while it has not started (for per-class profiles), else null */
    Class<?> behaviorClass() {
        Behavior<M> b = behavior;
        return b == null ? null : b.getClass();
    }

    @Override
    public void timestampEvents(LongSupplier clock) {
        this.stampClock = clock;
    }

    @Override
    public long oldestStamp() {
        long oldest = Stamped.headOf(mailbox);
        Extras x = extras;
        if (x != null && x.channels != null) {
            for (ChannelQueue<?> c : x.channels) {
                oldest = Math.min(oldest, c.headStamp());
            }
        }
        return oldest;
    }

    // ------------------------------------------------------------------ EventQueue (main channel)

    @Override
    public Channel<?> channel() {
        return ref;
    }

    @Override
    public boolean isEmpty() {
        return mailbox.isEmpty();
    }

    @Override
    public int size() {
        return mailbox.size();
    }

    @Override
    public long headStamp() {
        return Stamped.headOf(mailbox);
    }

    /** @return queued messages on all channels, approximate */
    int queuedMessages() {
        int n = mailbox.size();
        Extras x = extras;
        if (x != null && x.channels != null) {
            for (ChannelQueue<?> c : x.channels) {
                n += c.size();
            }
        }
        return n;
    }

    // ------------------------------------------------------------------ the turn (owner only)

    private void runEventMode() {
        try {
            if (loLifecycle() == NEW && casLifecycle(NEW, RUNNING)) {
                start();
            }
            if (loLifecycle() == RUNNING && moveRequest == null) {
                processBatch();
            }
        } catch (Throwable t) {
            fail(t);
        }
    }

    private void start() throws Exception {
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
    private void resume() {
        while (continuation == null && loLifecycle() == RUNNING && (extras == null || extras.switchTo == null)) {
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

    private void processBatch() {
        SchedulerState state = schedulerState;
        state.onBatchStart();
        int handled = 0;
        // The common actor has one channel and nothing stashed (no extras): drain the main queue
        // directly. A handler that stashes, opens a channel or watches creates extras; the batch
        // then goes on in the general loop below.
        while (extras == null) {
            if (continuation == null || loLifecycle() != RUNNING) {
                return;
            }
            Object item = mailbox.relaxedPoll();
            if (item == null) {
                return;
            }
            if (deliver(null, item)) {
                handled++;
                if (!state.onBatchEvent(this, handled) || stopOrSwitchRequested()) {
                    return;
                }
            }
        }
        processChannels(state, handled);
    }

    /** The rest of a batch for an actor with extras: opened channels (pending queue) or a stash. */
    private void processChannels(SchedulerState state, int handledBefore) {
        int handled = handledBefore;
        EventQueue current = null;
        try {
            while (continuation != null && loLifecycle() == RUNNING) {
                Extras x = extras;
                if (x != null && x.stashDirty && handleFromStash()) {
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
                if (deliver(on, item)) {
                    handled++;
                    if (!state.onBatchEvent(current, handled) || stopOrSwitchRequested()) {
                        break;
                    }
                }
            }
        } finally {
            // also after a failing handler: a supervised actor goes on, so the channel keeps its slot (I3)
            if (current != null && extras != null && extras.pending != null) {
                requeue(extras, current);
            }
        }
    }

    private boolean stopOrSwitchRequested() {
        return loLifecycle() != RUNNING || (extras != null && extras.switchTo != null) || moveRequest != null;
    }

    /** Polls the next non-empty channel from the pending queue, adding the main channel first if needed. */
    private EventQueue nextPending(Extras x) {
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
    private void release(Extras x, EventQueue q) {
        if (q instanceof ChannelQueue<?> c) {
            c.clearQueued();
            if (!c.queue.isEmpty() && c.markQueued()) {
                x.pending.offer(c);
            }
        }
    }

    /** The batch ended while holding {@code q}: put it back if it still has messages. */
    private void requeue(Extras x, EventQueue q) {
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
     *
     * @return true if it was handled, false if it was stashed
     */
    private boolean deliver(ChannelQueue<?> on, Object item) {
        Receive<Object, ?> k = continuation;
        boolean keep = persistent;
        Object message = Envelope.unwrap(item);
        if (message instanceof SystemSignal signal) {
            signal.raise(); // fails this actor on its own turn (Supervision)
        }
        ActorRef<?> from = Envelope.senderOf(item);
        if (!keep) {
            continuation = null; // a react continuation is consumed by its message (persistent is already false)
            sender = from;
        } else if (sender != from) {
            sender = from;
        }
        Object r;
        JfrEvents.MessageHandled event = Telemetry.beginHandled();
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
        system.metrics().handled();
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
    private void handlerFailed(Receive<Object, ?> k, boolean keep) {
        sender = null;
        system.metrics().handled();
        if (continuation == null) {
            continuation = k;
            persistent = keep;
        }
    }

    /** The continuation does not match the message: keep the continuation, stash the message. */
    private void unmatched(Receive<Object, ?> k, boolean keep, ChannelQueue<?> on, Object item) {
        continuation = k;
        persistent = keep;
        sender = null;
        stash(on, item);
    }

    private void endHandled(JfrEvents.MessageHandled event, ChannelQueue<?> on, Object item, Object message) {
        long queued = item instanceof Stamped st && stampClock == null ? System.nanoTime() - st.stamp() : -1;
        Telemetry.endHandled(event, this, on, message, queued);
    }

    /**
     * The continuation was set, or a become handled a message (its state changed): guards may now
     * match saved messages, so the stash is searched again before the queues.
     */
    private void stashMayMatch() {
        Extras x = extras;
        if (x != null && x.stash != null && !x.stash.isEmpty()) {
            x.stashDirty = true;
        }
    }

    /** The handler set a new continuation or none: run the composed steps (andThen, loop). */
    private void resumeAfterHandler() {
        try {
            // the steps composed after this handler (andThen, loop) still see its sender (seed
            // 000 §3.4: awaitPing andThen sendPong, where sendPong replies to the Ping's sender)
            resume();
        } finally {
            sender = null;
        }
    }

    private void stash(ChannelQueue<?> on, Object item) {
        Extras x = extras();
        if (x.stash == null) {
            x.stash = new ArrayDeque<>();
        }
        x.stash.addLast(new Object[] {on, item});
    }

    /** Searches the stash, in arrival order, for the first message the continuation matches. */
    private boolean handleFromStash() {
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
                if (!deliver(on, item)) {
                    throw new IllegalStateException("handler matched a message on isDefinedAt but not on apply: " + Envelope.unwrap(item));
                }
                return true;
            }
        }
        return false;
    }

    private boolean hasWorkLeft() {
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
    private boolean afterTurn() {
        if (extras == null && moveRequest == null && loLifecycle() == RUNNING) {
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
    private boolean afterTurnOtherwise() {
        if (loLifecycle() == STOPPING) {
            terminate();
        }
        Extras x = extras;
        if (x != null && x.restartPending) {
            x.restartPending = false;
            if (loLifecycle() == NEW) {
                restartOwned(x);
                return false;
            }
        }
        if (loLifecycle() == RUNNING) {
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
        if (loLifecycle() == STOPPED) {
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
    private boolean spinOrRelease() {
        if (schedulerState instanceof Speculation sp && !threadMode && sp.awaitArrival(this)) {
            return true;
        }
        releaseOrReschedule();
        return false;
    }

    /** Deactivates the frame, then takes it back if a message arrived meanwhile (I2). */
    private void releaseOrReschedule() {
        if (idleOrReclaim()) {
            if (lvLifecycle() == STOPPED) {
                drainStoppedAndRelease();
                return;
            }
            scheduleOwned();
        }
    }

    // ------------------------------------------------------------------ failure and stop

    private void fail(Throwable t) {
        if (t == DetachSignal.INSTANCE) {
            throw (DetachSignal) t;
        }
        system.reportFailure(this, t);
        Extras x = extras;
        if (x != null && x.supervision != null && loLifecycle() == RUNNING && x.supervision.onFailure(this, t)) {
            return;
        }
        extras().failure = t;
        requestStop();
    }

    // ------------------------------------------------------------------ supervision (Supervision)

    /** Sets the supervision state; called once by spawn, before the first activation. */
    void supervise(Supervision s) {
        extras().supervision = s;
    }

    /** @return whether a failed handler can be resumed: event-based, with a continuation kept */
    boolean canResume() {
        return !threadMode && continuation != null;
    }

    /**
     * Owner, after a failure: forget the computation, keep the mailbox and the stash, and start
     * {@code next} after {@code delayNanos}. The frame stays active meanwhile, so nothing runs.
     *
     * @return false if a stop was requested meanwhile (the actor stops instead)
     */
    @SuppressWarnings("unchecked")
    boolean prepareRestart(Behavior<?> next, long delayNanos) {
        if (!casLifecycle(RUNNING, NEW)) {
            return false;
        }
        continuation = null;
        persistent = false;
        hooks = null;
        sender = null;
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

    /** End of a failed turn: hand the still-active frame back to its home scheduler, after the backoff. */
    private void restartOwned(Extras x) {
        Supervision s = x.supervision;
        threadMode = s.threadMode;
        scheduler = s.home;
        s.home.initSchedule(this); // a thread-based actor gets a new thread
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
    Throwable failureCause() {
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
    Thread stopFromOutside() {
        requestStop();
        Extras x = extras;
        Thread t = x == null ? null : x.thread;
        boolean wasIdle = casActive();
        if (wasIdle) {
            if (lvLifecycle() == STOPPED) {
                drainStoppedAndRelease();
            } else {
                scheduleOwned();
            }
        }
        if (t == null) {
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
    Thread endFromOutside() {
        Extras x = extras;
        Thread t = x == null ? null : x.thread;
        if (t == null || lvLifecycle() != STOPPING || !casGate(x, GATE_OPEN, GATE_TAKEN)) {
            return null;
        }
        // The thread has held `active` since the stop (receive keeps it while stopping); if it was
        // still parked in receive, take it here. Either way no sender can activate the frame now.
        casActive();
        try {
            terminate();
        } finally {
            drainStoppedAndRelease();
            LockSupport.unpark(t); // a thread parked in receive sees STOPPED and throws
            if (scheduler instanceof ThreadPerActorScheduler own) {
                own.abandon(this); // its shutdown does not wait for this thread
            }
        }
        return t;
    }

    private void terminate() {
        svLifecycle(STOPPED);
        continuation = null;
        persistent = false;
        hooks = null;
        runStopHooks(); // after STOPPED: what a hook sends to this actor is a dead letter
        drainToDeadLetters();
        // name first (a STOPPED listener may reuse it), table last (close() waits for an empty
        // table, so every STOPPED is published before close returns)
        system.releaseName(this);
        system.deathwatch().terminated(this, failureCause()); // watchers told before STOPPED is published
        system.lifecycleStream().publish(new LifecycleEvent(ref, LifecycleEvent.Kind.STOPPED, null));
        system.unregister(this);
    }

    /** Runs and forgets the onStop hooks, last registered first; a hook that throws is logged. */
    private void runStopHooks() {
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
    private void terminateInline() {
        if (loLifecycle() != STOPPED) {
            terminate();
        } else {
            drainToDeadLetters();
        }
        svIdle();
    }

    private void drainToDeadLetters() {
        DeadLetter.Reason reason = stoppedReason();
        Object item;
        Extras x = extras;
        // the stash first: its messages arrived before anything still in the queues
        if (x != null && x.stash != null) {
            for (Object[] saved : x.stash) {
                deadLetter(saved[1], reason);
            }
            x.stash.clear();
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

    // ------------------------------------------------------------------ thread mode

    /**
     * Runs the body (or the rest of a switchToThread) on the actor's own thread.
     *
     * @return false if the actor was ended from outside meanwhile (endFromOutside): the caller
     *     must not touch the frame again
     */
    private boolean runThreadMode() {
        Extras x = extras();
        if (lvGate(x) == GATE_TAKEN) {
            return false;
        }
        svGate(x, GATE_OPEN); // a new incarnation (restart, switchToThread) of a live actor
        x.thread = Thread.currentThread();
        Throwable failed = null;
        try {
            if (loLifecycle() == NEW && casLifecycle(NEW, RUNNING)) {
                start();
            } else if (loLifecycle() == RUNNING && x.threadBody != null) {
                Runnable body = x.threadBody;
                x.threadBody = null;
                body.run();
                resume();
            }
        } catch (DetachSignal detached) {
            threadMode = false;
            if (x.switchTo == null) {
                x.switchTo = system.defaultScheduler();
            }
            x.stashDirty = true;
        } catch (ActorStoppedException stopped) {
            if (loLifecycle() == RUNNING) {
                failed = stopped;
            }
        } catch (Throwable t) {
            failed = t;
        } finally {
            x.thread = null;
        }
        if (!casGate(x, GATE_OPEN, GATE_RETURNED)) {
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
            if (failed != null && causedByInterrupt(failed) && loLifecycle() >= STOPPING) {
                failed = null;
            }
        }
        if (failed != null) {
            fail(failed);
        }
        return true;
    }

    private static boolean causedByInterrupt(Throwable t) {
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof InterruptedException || t instanceof java.io.InterruptedIOException
                    || t instanceof java.nio.channels.ClosedByInterruptException) {
                return true;
            }
        }
        return false;
    }

    private void checkReceiveAllowed(Object handler) {
        Objects.requireNonNull(handler, "handler");
        Extras x = extras;
        if (!threadMode || x == null || x.thread != Thread.currentThread()) {
            if (WeftSystem.current() == this) {
                throw new IllegalStateException("receive called inside a react handler of " + ref
                        + ": it would block a pool worker. Use react(handler), or switchToThread(body) to continue as a thread-based actor");
            }
            throw new IllegalStateException("receive called on " + ref + " from thread " + Thread.currentThread().getName()
                    + ", which is not the actor's own thread");
        }
    }

    @Override
    public <R> R receive(Receive<? super M, R> handler) {
        checkReceiveAllowed(handler);
        return receiveUntil(handler, Long.MAX_VALUE, false);
    }

    @Override
    public <R> R receiveWithin(Duration timeout, Receive<? super M, R> handler) {
        Objects.requireNonNull(timeout, "timeout");
        checkReceiveAllowed(handler);
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout: must not be negative, was " + timeout);
        }
        long nanos = saturatedNanos(timeout);
        long deadline = System.nanoTime() + nanos;
        return receiveUntil(handler, nanos == 0 ? 0 : deadline, true);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException overflow) {
            return Long.MAX_VALUE / 2;
        }
    }

    @SuppressWarnings("unchecked")
    private <R> R receiveUntil(Receive<? super M, R> h, long deadline, boolean timed) {
        Receive<Object, R> handler = (Receive<Object, R>) h;
        Extras x = extras;
        for (;;) {
            checkNotStopped();
            // 1. the stash, in arrival order
            if (x.stash != null && !x.stash.isEmpty()) {
                for (Iterator<Object[]> it = x.stash.iterator(); it.hasNext(); ) {
                    Object[] saved = it.next();
                    ChannelQueue<?> on = (ChannelQueue<?>) saved[0];
                    Object item = saved[1];
                    if (handler.isDefinedAt(on == null ? null : on.channel(), Envelope.unwrap(item))) {
                        it.remove();
                        return applyReceived(handler, on, item);
                    }
                }
            }
            // 2. newly arrived messages (the stash search ran user code: stopped meanwhile?)
            checkNotStopped();
            Object item = mailbox.relaxedPoll();
            ChannelQueue<?> on = null;
            if (item == null && x.channels != null) {
                for (ChannelQueue<?> c : x.channels) {
                    item = c.queue.relaxedPoll();
                    if (item != null) {
                        on = c;
                        break;
                    }
                }
            }
            if (item != null) {
                Object message = Envelope.unwrap(item);
                if (message instanceof SystemSignal signal) {
                    signal.raise(); // fails this actor on its own thread (Supervision)
                }
                ActorRef<?> previous = sender;
                sender = Envelope.senderOf(item);
                Object r = handler.tryApply(on == null ? null : on.channel(), message);
                if (r != Receive.NO_MATCH) {
                    system.metrics().handled();
                    return (R) r; // sender stays: the code after receive may reply
                }
                sender = previous;
                if (loLifecycle() >= STOPPING) {
                    // the actor stops (it may have been ended from outside while the handler ran):
                    // the stash may already be drained, so the declined message is a dead letter now
                    deadLetter(item, stoppedReason());
                    continue;
                }
                stash(on, item);
                continue;
            }
            // 3. nothing matched: wait
            if (timed && (deadline == 0 || System.nanoTime() - deadline >= 0)) {
                return timeout(handler);
            }
            awaitActivation(timed ? deadline : 0);
        }
    }

    /** Thread mode: after receive returns, sender() stays the sender of the message it received. */
    private <R> R applyReceived(Receive<Object, R> handler, ChannelQueue<?> on, Object item) {
        sender = Envelope.senderOf(item);
        R r = handler.apply(on == null ? null : on.channel(), Envelope.unwrap(item));
        system.metrics().handled();
        return r;
    }

    private <R> R timeout(Receive<Object, R> handler) {
        if (handler.hasTimeoutCase()) {
            return handler.onTimeout();
        }
        throw new ReceiveTimeoutException("receiveWithin on " + ref + " timed out and the handler has no onTimeout case");
    }

    private void checkNotStopped() {
        if (loLifecycle() >= STOPPING) {
            Extras x = extras;
            if (x != null && x.adopted && loLifecycle() != STOPPED && casGate(x, GATE_OPEN, GATE_RETURNED)) {
                // An adopted thread owns its frame here and has no scheduler turn to finish it.
                terminate();
                drainStoppedAndRelease();
            }
            throw new ActorStoppedException("actor " + ref + " was stopped while in receive");
        }
    }

    /**
     * Gives up the activation and parks until a sender (or a stop) activates the frame again
     * (I2). Returns owning the frame, or at the deadline (then owning it too).
     */
    private void awaitActivation(long deadline) {
        if (lvLifecycle() >= STOPPING) {
            return; // keep the frame: the caller's next check throws (design block: stopping a thread)
        }
        svIdle();
        if (hasPending() || loLifecycle() >= STOPPING) {
            if (casActive()) {
                return;
            }
        }
        while (!lvActive()) {
            if (lvLifecycle() == STOPPED) {
                // ended from outside while waiting (endFromOutside); the frame is not ours any more
                throw new ActorStoppedException("actor " + ref + " was stopped while in receive");
            }
            if (deadline != 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    if (casActive()) {
                        return;
                    }
                    continue; // a sender won the race: it will hand us the frame
                }
                LockSupport.parkNanos(this, left);
            } else {
                LockSupport.park(this);
            }
        }
    }

    // ------------------------------------------------------------------ ActorContext (owner only)

    /**
     * Refuses an owner-only context method called from a thread that is not running this actor
     * (I1: owner-only state is plain fields, published between owners by the activation word, so
     * a foreign write would race with the actor's own turn). The owner is the thread running the
     * actor's turn or body (a pool worker, the actor's own thread, a test scheduler's thread) or
     * the adopted thread of {@code Actors.self}. Out of line: the owner's call pays one
     * {@code current()} read.
     */
    private void checkOwner(String what) {
        if (WeftSystem.current() != this && !ownsCurrentThread()) {
            throw notOwner(what);
        }
    }

    private boolean ownsCurrentThread() {
        Extras x = extras;
        return x != null && x.thread == Thread.currentThread();
    }

    private IllegalStateException notOwner(String what) {
        return new IllegalStateException(what + " called on " + ref + " from thread \"" + Thread.currentThread().getName()
                + "\", which is not running this actor. Only the actor itself (its body, its handlers or its own thread)"
                + " may call this method of its context; from elsewhere, send the actor a message");
    }


    @Override
    public ActorRef<M> self() {
        return ref;
    }

    @Override
    public ActorSystem system() {
        return system;
    }

    @Override
    public ActorRef<?> sender() {
        checkOwner("sender()");
        return sender;
    }

    @Override
    public void reply(Object message) {
        checkOwner("reply");
        Objects.requireNonNull(message, "message");
        ActorRef<?> to = sender;
        if (to == null) {
            throw new IllegalStateException("reply from " + ref + ": the message being handled has no sender;"
                    + " the sender must use tell(message, replyTo) or ask");
        }
        @SuppressWarnings("unchecked")
        ActorRef<Object> target = (ActorRef<Object>) to;
        target.tell(message);
    }

    @Override
    public <T> void forward(Channel<T> target, T message) {
        checkOwner("forward");
        Objects.requireNonNull(target, "target");
        target.tell(message, sender);
    }

    @Override
    public void react(Receive<? super M, ?> handler) {
        await(handler, false, "react");
    }

    @Override
    public void become(Receive<? super M, ?> handler) {
        await(handler, true, "become");
    }

    /**
     * Installs the continuation of react (one message) or become (every message). In thread mode,
     * on the actor's own thread, it detaches: the thread unwinds and the frame goes event-based.
     */
    @SuppressWarnings("unchecked")
    private void await(Receive<? super M, ?> handler, boolean keep, String what) {
        Objects.requireNonNull(handler, "handler");
        checkOwner(what);
        if (continuation != null && !persistent) {
            throw new IllegalStateException(what + " called on " + ref + " while an earlier react is still waiting;"
                    + " " + what + " must be the last step of a body or handler");
        }
        continuation = (Receive<Object, ?>) handler;
        persistent = keep;
        stashMayMatch();
        if (threadMode) {
            Extras e = extras();
            if (e.thread == Thread.currentThread()) {
                e.stashDirty = true;
                throw DetachSignal.INSTANCE;
            }
        }
    }

    @Override
    public void loop(Runnable body) {
        checkOwner("loop");
        Objects.requireNonNull(body, "body");
        hooks = new Hook(body, true, null, hooks);
    }

    @Override
    public void loopWhile(BooleanSupplier condition, Runnable body) {
        checkOwner("loopWhile");
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(body, "body");
        hooks = new Hook(body, true, condition, hooks);
    }

    @Override
    public void andThen(Runnable first, Runnable next) {
        checkOwner("andThen");
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(next, "next");
        hooks = new Hook(first, false, null, new Hook(next, false, null, hooks));
    }

    @Override
    public void switchToThread(Runnable body) {
        checkOwner("switchToThread");
        Objects.requireNonNull(body, "body");
        if (threadMode) {
            throw new IllegalStateException(ref + " is already thread-based");
        }
        Extras x = extras();
        x.threadBody = body;
        x.switchTo = system.threadScheduler();
        threadMode = true;
        continuation = null;
        persistent = false;
    }

    /** Moves this actor to another scheduler after the current handler (weak mobility); owner only. */
    @Override
    public void moveTo(Scheduler target) {
        checkOwner("moveTo");
        checkMoveTarget(target);
        if (threadMode) {
            throw new IllegalStateException(ref + " is thread-based; only event-based actors can move between schedulers");
        }
        svMoveRequest(target); // taken in afterTurn, like a move requested from outside
    }

    /** Asks the actor to move after its current or next turn; any thread; activates an idle actor. */
    void requestMove(Scheduler target) {
        checkMoveTarget(target);
        svMoveRequest(target);
        activate();
    }

    private void checkMoveTarget(Scheduler target) {
        Objects.requireNonNull(target, "target");
        if (target.ownsThread()) {
            throw new IllegalArgumentException("target: scheduler " + target.name() + " gives each actor its own thread;"
                    + " an event-based actor cannot move there (use switchToThread)");
        }
    }

    @Override
    public <T> Channel<T> open(Class<T> type) {
        checkOwner("open");
        Objects.requireNonNull(type, "type");
        Extras x = extras();
        if (x.pending == null) {
            x.pending = scheduler.newPendingQueue();
            x.channels = new ArrayList<>(2);
        }
        ChannelQueue<T> c = new ChannelQueue<>(this, type, MailboxPolicy.newQueueLike(mailbox), x.pending, x.channels.size() + 1);
        x.channels.add(c);
        return c;
    }

    @Override
    public void stop() {
        if (WeftSystem.current() == this || ownsCurrentThread()) {
            requestStop(); // the owner's turn ends the actor when the handler returns
        } else {
            system.stop(ref); // an idle actor is activated to finish stopping, a blocked thread interrupted
        }
    }

    @Override
    public void onStop(Runnable hook) {
        checkOwner("onStop");
        Objects.requireNonNull(hook, "hook");
        Extras x = extras();
        if (x.stopHooks == null) {
            x.stopHooks = new ArrayDeque<>(2);
        }
        x.stopHooks.addLast(hook);
    }

    @Override
    public void watch(ActorRef<?> other) {
        checkOwner("watch");
        system.deathwatch().watch(this, other);
    }

    @Override
    public void unwatch(ActorRef<?> other) {
        checkOwner("unwatch");
        system.deathwatch().unwatch(this, other);
    }

    @Override
    public void link(ActorRef<?> other) {
        checkOwner("link");
        system.deathwatch().link(this, other);
    }

    @Override
    public void unlink(ActorRef<?> other) {
        checkOwner("unlink");
        system.deathwatch().unlink(this, other);
    }

    @Override
    public void trapExit(boolean trap) {
        checkOwner("trapExit");
        system.deathwatch().trapExit(this, trap);
    }

    @Override
    public <C> ActorRef<C> spawnChild(io.weft.actors.Props props, java.util.function.Supplier<? extends Behavior<C>> factory) {
        checkOwner("spawnChild");
        return system.spawnSupervised(this, props, factory, false);
    }

    @Override
    public <C> ActorRef<C> spawnChildThread(io.weft.actors.Props props, java.util.function.Supplier<? extends Behavior<C>> factory) {
        checkOwner("spawnChildThread");
        return system.spawnSupervised(this, props, factory, true);
    }

    private Extras extras() {
        Extras x = extras;
        if (x == null) {
            x = new Extras();
            extras = x;
        }
        return x;
    }

    /** Prepares a frame created for a thread that is already running (any thread as an actor). */
    void adoptCurrentThread() {
        svLifecycle(RUNNING);
        svActive();
        Extras x = extras();
        x.adopted = true;
        x.thread = Thread.currentThread(); // volatile: publishes `adopted` to stoppers
    }

    /** @return true if this is the actor of an adopted thread ({@link #adoptCurrentThread}) */
    boolean isAdopted() {
        Extras x = extras;
        return x != null && x.adopted;
    }

    /** The thread of a thread-based actor, or null. */
    public Thread ownThread() {
        Extras x = extras;
        return x == null ? null : x.thread;
    }

    /** Ends an adopted thread's actor from that thread (or after the thread died). */
    public void finishAdopted() {
        Extras x = extras();
        if (!casGate(x, GATE_OPEN, GATE_RETURNED) && lvGate(x) == GATE_TAKEN) {
            return; // ended from outside already (endFromOutside), which released the frame
        }
        requestStop();
        if (loLifecycle() != STOPPED) {
            terminate();
        }
        drainStoppedAndRelease();
    }
}
