package io.weft.actors.stream.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.Channel;
import io.weft.actors.stream.Stage;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * Runs one {@link Stage} as a {@link Frame} of the scheduler SPI: its {@link StageInput} (a typed
 * bounded queue, JCTools SPSC when exactly one stage feeds it, MPSC otherwise, and the SPSC lanes of
 * feeders) drained in batches by {@code consume}. The ForkJoin scheduler runs it, like an actor's
 * cell, through a fresh pool task per schedule; a stage fed by one stage usually runs on its
 * producer's worker, right after the producer's turn (the hand-off, StageDownstream).
 *
 * @param <I> the input type
 * @param <O> the output type
 */
public final class StageFrame<I, O> extends StageFramePad<I> implements Frame, EventQueue, Runnable {

    /* design
     * The activation protocol of Cell (Prokopec 2016, Fig. 1-3), for a single typed queue and no
     * behaviours (Rinaldi et al. 2020, §4, SeqNode), on the same ActivationWord (its A1-A3 are the
     * I1 and I2 below): `active` 0 = idle, 1 = owned by exactly one thread.
     *
     *   offer:   queue.offer(item) then [full fence] if active == 0 and CAS(0, 1): schedule.
     *            MPSC offer is a CAS (a full fence); SPSC offer is only a release store, so the
     *            SPSC path adds VarHandle.fullFence() before reading `active` (I2 below). This is
     *            the path of the inlet (put, offer from any thread) and of thread-based stages.
     *   feed:    a feeder's offer into its own SPSC lane (StageInput, L1), then the full fence and
     *            the activation above: one thread's source pays a release store and a fence, no CAS.
     *   emit from a stage's turn on a pool worker (deferred signals): queue.offer(item) only, the
     *            target marked and `unsignalled` counted here; the flush (one fence, then the
     *            activation above per marked target) is StageDownstream's (its design block).
     *   end:     each producer's EOS is an atomic increment of `ended` (after its last offer and
     *            a flush), then the same activation.
     *   execute: onStart once; then turns. A turn polls/consumes until the queue is empty or the
     *            budget ends (ITEMS_PER_EVENT items count as one event of the SchedulerState's
     *            batch budget: a typed item costs a small part of an actor message). An empty
     *            queue with ended == producers and still empty after that read means end of
     *            stream: onStop, flush, propagate EOS downstream, terminate. After a turn:
     *            - budget used, and the worker has nothing else queued (no local task, no
     *              submission): another turn at once, up to MAX_TURNS, else schedule again;
     *            - queue drained while input flows: wait a few microseconds for more before
     *              going idle (InputWait's design block);
     *            - nothing polled although the queue is not empty (an MPSC producer claimed a slot
     *              and has not written it yet, perhaps preempted): yield and retry, up to MAX_TURNS;
     *            - else active = 0 (volatile), re-check, and CAS(0, 1) + schedule if work appeared.
     *   hand-off (Prokopec 2016, §5.2): a flush may keep an activated target and run one turn of
     *            it (runNested) after each of this frame's turns; an emit into the held target
     *            while its queue is empty calls its consume at once (consumeFused, operator
     *            fusion); both in StageDownstream's design block.
     *   room:    a blocked emitter registers as `waiter`; a turn that took items out unparks it
     *            (after a full fence; Waits, W1).
     *
     * Invariants:
     *   I1: consume/onStart/onStop run only on the thread that owns `active` = 1: one at a time.
     *       A held hand-off frame is owned by its holder's thread (StageDownstream, H1).
     *   I2: no lost wake-up: the producer's offer precedes its read of `active` (full fence; for
     *       deferred signals the flush's fence, and every turn ends with a flush); the owner's
     *       write of 0 precedes its re-read of the queue; one of them sees the other.
     *   I3: EOS after all items: a producer increments `ended` after its last offer, and a feeder
     *       closes its lane after its last offer, so a consumer that reads ended == producers, then
     *       finds no lane left and the queue empty, has seen all (StageInput, L1).
     *   I4: stop (failure or cancel) is a flag on the shared network; every frame is activated
     *       once more, sees it, moves its queue to dead letters and terminates without onStop.
     *   I5: a conditional offer (emitIfBelow, offerIfBelow) never takes the queue above its limit
     *       when every producer offers conditionally: on an MPSC queue the length check and the
     *       offer run under `conditional` (a ReentrantLock, never a monitor: a virtual thread may
     *       emit), so no two conditional producers pass the check for the same free place; the
     *       consumer only shrinks the queue meanwhile. Unconditional offers (emit, put) never take
     *       the lock and are bounded by the queue's capacity only. An SPSC queue has one producer,
     *       which counts down the room it last saw (StageInput's design block).
     *   I6: per-producer order (StageDownstream, I6).
     *   `owner` is the thread running this frame's turn (null otherwise); only that thread ever
     *   reads it as itself, so a stale value is never mistaken; it is cleared before the frame
     *   is given up (A3), so a late write never overwrites the next owner's.
     */

    /** Items that count as one event of the scheduler's batch budget (a power of two). */
    static final int ITEMS_PER_EVENT = 16;
    /** Deferred emits after which the emitter flushes its signals within a turn. */
    static final int SIGNAL_EVERY = 64;
    /** Turns in one execute while the worker has nothing else queued. */
    static final int MAX_TURNS = 64;

    private final String name;
    private final Stage<I, O> stage;
    private final Network<?> network;
    private final StreamRef<I> ref;
    private SchedulerState state;
    private Outlet<O> out;
    /** The stage outlets this frame emits into, their flush and the held hand-off frame. */
    private final StageDownstream downstream;

    private volatile boolean terminated;
    private volatile long consumed;
    private boolean started;

    // owner-only state of the running turn
    /** The thread running this frame's turn on a pool worker, else null (see the design block). */
    private Thread owner;
    /** Deferred emits since the last flush. */
    private int unsignalled;
    /** Whether this frame runs nested in its producer's execute (no spinning for input then). */
    private boolean nested;
    /** Items consumed fused into the holder's emits since this frame's last turn (owner-only). */
    private long fused;

    StageFrame(String name, Stage<I, O> stage, Network<?> network, int producers, boolean external, Scheduler scheduler) {
        super(new StageInput<>(Math.max(4, StageAccess.get().capacity(stage)), producers, producers == 1 && !external),
                scheduler);
        this.name = name;
        this.stage = stage;
        this.network = network;
        this.ref = new StreamRef<>(name, this::put);
        this.downstream = new StageDownstream(scheduler);
        scheduler.initSchedule(this);
    }

    void connect(Outlet<O> outlet) {
        this.out = outlet;
        downstream.connect(this, outlet);
        StageAccess.get().bind(stage, this, outlet);
    }

    /** @return the stage's unique name in its network */
    public String name() {
        return name;
    }

    void dead(I item) {
        network.dead(item, ref);
    }

    boolean isStopped() {
        return network.stopped || terminated;
    }

    private boolean put(I item) {
        return offer(item) || Waits.offerBlocking(this, item);
    }

    /**
     * Offers and, if this frame is idle, activates it (the inlet's and a thread-based stage's path).
     *
     * @param item the item
     * @return false if the queue is full
     */
    boolean offer(I item) {
        if (!input.offer(item)) {
            return false;
        }
        if (input.spsc) {
            VarHandle.fullFence();
        }
        activate();
        return true;
    }

    /**
     * A feeder's offer into its own lane, then the fence and the activation (I2).
     *
     * @param lane the feeder's lane into this frame
     * @param item the item
     * @return false if the lane is full
     */
    boolean offer(StageInput.Lane<I> lane, I item) {
        if (!lane.queue.offer(item)) {
            return false;
        }
        VarHandle.fullFence();
        activate();
        return true;
    }

    /**
     * Adds a feeder's lane to this frame's input.
     *
     * @return the lane
     */
    StageInput.Lane<I> addLane() {
        return input.addLane();
    }

    /**
     * A feeder is done with its lane (after its last offer): the consumer drains and removes it.
     *
     * @param lane the lane
     */
    void closeLane(StageInput.Lane<I> lane) {
        lane.closed = true;
        activate();
    }

    /**
     * Offers without the fence and the activation; the emitter flushes its signals later (the
     * deferred path of a stage's turn, see the design block).
     *
     * @param item the item
     * @return false if the queue is full
     */
    boolean offerQuietly(I item) {
        return input.offer(item);
    }

    /**
     * Offers {@code item} only if the queue holds fewer than {@code limit} items (emitIfBelow,
     * offerIfBelow). Conditional offers to an MPSC queue take the input's lock, so two of them
     * cannot both pass the length check and together go over the limit (I5); unconditional offers
     * never take it.
     *
     * @param item the item
     * @param limit the refusal threshold
     * @return false if the queue held {@code limit} or more, or was full
     */
    boolean offerIfBelow(I item, int limit) {
        if (!offerIfBelowQuietly(item, limit)) {
            return false;
        }
        if (input.spsc) {
            VarHandle.fullFence();
        }
        activate(); // MPSC offer is a CAS (a full fence), as in offer (I2)
        return true;
    }

    /**
     * {@link #offerIfBelow} without the fence and the activation: the emitter flushes later.
     *
     * @param item the item
     * @param limit the refusal threshold
     * @return false if the queue held {@code limit} or more, or was full
     */
    boolean offerIfBelowQuietly(I item, int limit) {
        return input.offerIfBelow(item, limit);
    }

    void producerDone() {
        input.producerDone();
        activate();
    }

    void activate() {
        if (activateIfIdle()) {
            if (StageStats.ON) {
                StageStats.WAKEUPS.increment();
            }
            scheduler.schedule(this);
        }
    }

    /** @return whether this call won the activation (CAS 0 to 1): the caller then owns this frame */
    boolean tryActivate() {
        return activateIfIdle();
    }

    long consumed() {
        return consumed;
    }

    // ------------------------------------------------------------ turns

    private static final int TERMINATED = 0;
    private static final int BUDGET_USED = 1;
    private static final int DRAINED = 2;
    private static final int EMPTY = 3;

    @Override
    public void execute() {
        if (terminated) {
            return;
        }
        owner = Thread.currentThread() instanceof ForkJoinWorkerThread t ? t : null;
        if (StageStats.ON) {
            StageStats.EXECUTES.increment();
        }
        int turns = 0;
        for (;;) {
            int r = turn();
            downstream.runHandOff();
            if (r == TERMINATED) {
                downstream.releaseHandOff();
                owner = null;
                return;
            }
            if (r == BUDGET_USED) {
                if (++turns < MAX_TURNS && InputWait.nothingElseQueued()) {
                    continue; // the worker has nothing else to run: no pool round trip
                }
                if (StageStats.ON) {
                    StageStats.RESUBMITS.increment();
                }
                downstream.releaseHandOff();
                owner = null;
                scheduler.schedule(this);
                return;
            }
            if (downstream.heldHasWork() && ++turns < MAX_TURNS) {
                continue; // the downstream frame this one runs still has work
            }
            if (r == DRAINED && !nested && InputWait.awaitInput(this)) {
                continue;
            }
            if (r == EMPTY && workLeft() && ++turns < MAX_TURNS) {
                // an item in flight: an MPSC producer has claimed its slot and not yet written it
                // (it may be preempted); yield to it instead of a round trip through the pool
                Thread.yield();
                continue;
            }
            downstream.releaseHandOff();
            owner = null; // before the frame is given up: the next owner sets its own (A3)
            boolean left = workLeft();
            if (left || idleOrReclaim()) {
                if (StageStats.ON && left) {
                    StageStats.REQUEUES.increment();
                }
                scheduler.schedule(this);
            } else if (StageStats.ON) {
                StageStats.IDLES.increment();
            }
            return;
        }
    }

    /**
     * One turn: consumes until the queue is empty or the budget is used; then flushes the signals
     * and wakes a blocked emitter if items were taken out.
     */
    private int turn() {
        Stage<I, O> s = stage;
        StageInput<I> q = input;
        long count = consumed + fused;
        if (StageStats.ON) {
            StageStats.FUSED.add(fused);
        }
        fused = 0;
        int n = 0;
        if (StageStats.ON) {
            StageStats.TURNS.increment();
        }
        try {
            if (!started) {
                started = true;
                Hooks.start(s);
            }
            SchedulerState st = state;
            st.onBatchStart();
            q.rotate();
            for (;;) {
                if (network.stopped) {
                    consumed = count;
                    terminate();
                    return TERMINATED;
                }
                I x = q.poll();
                if (x == null) {
                    q.removeClosedLanes();
                    if (q.endOfStream()) {
                        consumed = count;
                        Hooks.stop(s);
                        flushSignals();
                        out.complete();
                        terminate();
                        return TERMINATED;
                    }
                    consumed = count;
                    flushSignals();
                    if (n == 0) {
                        return EMPTY;
                    }
                    q.wakeWaiter();
                    return DRAINED;
                }
                Hooks.consume(s, x);
                count++;
                if ((++n & (ITEMS_PER_EVENT - 1)) == 0 && !st.onBatchEvent(this, n / ITEMS_PER_EVENT)) {
                    consumed = count;
                    flushSignals();
                    q.wakeWaiter();
                    return BUDGET_USED;
                }
            }
        } catch (Throwable e) {
            consumed = count;
            network.failed(name, e);
            terminate();
            return TERMINATED;
        }
    }

    // ------------------------------------------------------------ hand-off

    /**
     * One turn of this frame on its producer's thread (StageDownstream's hand-off).
     *
     * @return true if the caller still holds this frame (it keeps up and may get more input),
     *     false if it is idle, finished, or given to its scheduler
     */
    boolean runNested() {
        if (terminated) {
            return false;
        }
        owner = Thread.currentThread();
        nested = true;
        if (StageStats.ON) {
            StageStats.NESTED.increment();
        }
        boolean keptUp = fused != 0; // it consumed its holder's emits directly
        int r = turn();
        downstream.runHandOff();
        nested = false;
        if (r == TERMINATED) {
            downstream.releaseHandOff();
            owner = null;
            return false;
        }
        downstream.releaseHandOff();
        owner = null;
        if (r == BUDGET_USED && !input.isEmpty()) {
            // it falls behind its producer: a worker of its own. A turn that used its budget and
            // left the queue empty kept up (a 1:1 stage behind a producer with the same budget
            // consumes exactly a budget per turn): it stays the hand-off
            scheduler.schedule(this);
            if (StageStats.ON) {
                StageStats.RESUBMITS.increment();
            }
            return false;
        }
        if (keptUp || r != EMPTY || workLeft() || idleOrReclaim()) {
            // it consumed (queued or fused items) and kept up: held for its producer's next turn
            return true;
        }
        if (StageStats.ON) {
            StageStats.IDLES.increment();
        }
        return false;
    }

    /**
     * Operator fusion: consumes {@code item} at once, on the thread of the frame that holds this
     * one as its hand-off and emits into it, instead of queueing it for this frame's next nested
     * turn. Only while this frame has started, is not stopped and its queue is empty, so no item
     * overtakes a queued one (I6); its own emits are deferred and flushed at its next turn, which
     * its holder runs right after its own turn (I2).
     *
     * @param item the item
     * @return false if it could not be fused (the caller queues it)
     */
    boolean consumeFused(I item) {
        if (!started || terminated || network.stopped || !input.isEmpty()) {
            return false;
        }
        owner = Thread.currentThread();
        try {
            Hooks.consume(stage, item);
        } catch (Throwable e) {
            network.failed(name, e); // its next nested turn sees the stop and terminates (I4)
        }
        owner = null;
        fused++;
        return true;
    }

    /**
     * @param target a frame this one emits into
     * @return whether this frame holds {@code target} as its hand-off (owns it, H1) and may fuse
     */
    boolean fuses(StageFrame<?, ?> target) {
        return downstream.fuses(target);
    }

    // ------------------------------------------------------------ deferred signals

    /** @return whether the calling thread runs this frame's turn on a pool worker (deferred signals) */
    boolean ownedByCaller() {
        return owner == Thread.currentThread();
    }

    /**
     * Records an emit whose signal is deferred; flushes every {@link #SIGNAL_EVERY}.
     *
     * @param target the outlet that took the item
     */
    void deferred(Outlet.ToStage<?> target) {
        target.dirty = true;
        if (++unsignalled >= SIGNAL_EVERY) {
            flushSignals();
        }
    }

    /** Flushes the deferred signals if any emit is unsignalled (StageDownstream#activateMarked). */
    void flushSignals() {
        if (unsignalled == 0) {
            return;
        }
        unsignalled = 0;
        downstream.activateMarked(owner != null);
    }

    /**
     * Before the emitter waits for room or reports a refusal: its signals go out and its held
     * frame goes to the scheduler, since that frame may be the consumer that must make room.
     */
    void beforeWait() {
        flushSignals();
        downstream.releaseHandOff();
    }

    // ------------------------------------------------------------ room for blocked emitters

    boolean registerWaiter(Thread t) {
        return input.registerWaiter(t);
    }

    void clearWaiter(Thread t) {
        input.clearWaiter(t);
    }

    /** {@link ActivationWord#idleOrReclaim()}'s re-check (I2). */
    @Override
    protected boolean workPending() {
        return workLeft();
    }

    /**
     * @return whether a turn has something to do: items, a closed lane to remove, the end of
     *     stream (every producer ended and no lane open), or a stop
     */
    boolean workLeft() {
        StageInput<I> in = input;
        return !in.isEmpty() || network.stopped || in.closedLane() || (in.allEnded() && !in.hasLanes());
    }

    private void terminate() {
        terminated = true;
        input.wakeWaiter(); // it sees the stop
        if (!input.isEmpty()) { // only after a stop: the items go to dead letters, not silently away
            input.drain(item -> network.dead(item, ref));
        }
        network.frameDone();
    }

    /** @return the current queue length, lanes included (approximate while producers are active) */
    public int size() {
        return input.size();
    }

    // ------------------------------------------------------------ Frame / EventQueue / FJ

    @Override
    public ActorRef<?> ref() {
        return ref;
    }

    @Override
    public Runnable task() {
        return this;
    }

    @Override
    public SchedulerState schedulerState() {
        return state;
    }

    @Override
    public void schedulerState(SchedulerState state) {
        this.state = state;
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
        return !input.isEmpty();
    }

    @Override
    public boolean isTerminated() {
        return terminated;
    }

    @Override
    public Channel<?> channel() {
        return ref;
    }

    @Override
    public boolean isEmpty() {
        return input.isEmpty();
    }

    @Override
    public void run() {
        execute();
    }

    @Override
    public String toString() {
        return "StageFrame[" + name + "]";
    }
}
