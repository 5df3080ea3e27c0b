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
public final class StageFrame<I, O> extends StageFrameInlet<I> implements EventQueue, Runnable {

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
     *            batch budget: a typed item costs a small part of an actor message). The per-item
     *            loop is the stage class's own hidden copy of ConsumeLoop (StageAccess.Loop), so
     *            its consume call and its poll (StageInput, by concrete queue class) each see one
     *            class. An empty
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
     *            it (StageFusion.runNested) after each of this frame's turns; an emit into the
     *            held target while its queue is empty calls its consume at once
     *            (StageFusion.consume, operator fusion). The holding side is StageDownstream's
     *            design block, the held side StageFusion's.
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
     *       A terminated frame (stop, failure or end of stream) gives its activation word up, with
     *       the re-check of I2 on its queue (releaseIfTerminated): an item offered after its last
     *       drain (a put that read the stop flag before the cancel, a put after complete()) makes
     *       its producer, or the re-check, the owner, and the owner moves it to dead letters
     *       instead of running a turn. No item stays in a terminated frame's queue.
     *   I5: a conditional offer (emitIfBelow, offerIfBelow) never takes the queue above its limit
     *       when every producer offers conditionally: on an MPSC queue the length check and the
     *       offer run under `conditional` (a ReentrantLock, never a monitor: a virtual thread may
     *       emit), so no two conditional producers pass the check for the same free place; the
     *       consumer only shrinks the queue meanwhile. Unconditional offers (emit, put) never take
     *       the lock and are bounded by the queue's capacity only. An SPSC queue has one producer,
     *       which counts down the room it last saw (StageInput's design block).
     *   I6: per-producer order (StageDownstream, I6).
     *   `owner` is the thread running this frame's turn, or a fused consume of it, or, during a
     *   fused run into it, the holder's thread, which owns the held frame outside the frame's
     *   own turn (StageDownstream, H1, F4); null otherwise. Only that thread ever reads it as
     *   itself, so a stale value is never mistaken; it is cleared before the frame is given up
     *   (A3), so a late write never overwrites the next owner's.
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
    final StageDownstream downstream;
    /** This frame's side of the hand-off: its nested turns and fused consumes. */
    final StageFusion<I> fusion;
    /** The per-item loop of this stage class's turns (StageAccess.Loop, ConsumeLoops). */
    private final StageAccess.Loop loop;
    /** What consume threw in the loop, for the turn (owner-only). */
    private Throwable failure;

    private volatile boolean terminated;
    private volatile long consumed;
    /** Whether onStart ran (owner-only; StageFusion reads it before a fused consume). */
    boolean started;

    // owner-only state of the running turn
    /** The thread running this frame's turn on a pool worker, else null (see the design block). */
    private Thread owner;
    /** Deferred emits since the last flush. */
    private int unsignalled;

    StageFrame(String name, Stage<I, O> stage, Network<?> network, int producers, boolean external, Scheduler scheduler) {
        super(new StageInput<>(Math.max(4, StageAccess.get().capacity(stage)), producers, producers == 1 && !external),
                scheduler);
        this.name = name;
        this.stage = stage;
        this.network = network;
        this.ref = new StreamRef<>(name, this::put);
        this.downstream = new StageDownstream(scheduler);
        this.fusion = new StageFusion<>(this, stage, input, network);
        this.loop = StageAccess.get().loop(stage);
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

    long consumed() {
        return consumed;
    }

    // ------------------------------------------------------------ turns

    static final int TERMINATED = 0;
    static final int BUDGET_USED = 1;
    static final int DRAINED = 2;
    static final int EMPTY = 3;

    @Override
    public void execute() {
        if (releaseIfTerminated()) {
            return;
        }
        owner = Thread.currentThread() instanceof ForkJoinWorkerThread t ? t : null;
        // a defence: a run into this frame's held frame starts only in this frame's turn or in a
        // fused consume of it, and ends before the frame is given up (runHandOff, beforeResubmit,
        // releaseHandOff; runNested always releases), so none is left here (StageDownstream)
        downstream.stopFusing();
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
                releaseIfTerminated();
                return;
            }
            if (r == BUDGET_USED) {
                if (++turns < MAX_TURNS && InputWait.nothingElseQueued()) {
                    continue; // the worker has nothing else to run: no pool round trip
                }
                if (StageStats.ON) {
                    StageStats.RESUBMITS.increment();
                }
                downstream.beforeResubmit();
                owner = null;
                scheduler.schedule(this);
                return;
            }
            if (downstream.heldHasWork() && ++turns < MAX_TURNS) {
                continue; // the downstream frame this one runs still has work
            }
            if (r == DRAINED && !fusion.nested && InputWait.awaitInput(this)) {
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
     * One turn: consumes until the queue is empty or the budget is used (the stage class's
     * {@link StageAccess.Loop}); then flushes the signals and wakes a blocked emitter if items
     * were taken out.
     */
    int turn() {
        Stage<I, O> s = stage;
        StageInput<I> q = input;
        long count = consumed + fusion.takeFused();
        if (StageStats.ON) {
            StageStats.TURNS.increment();
        }
        try {
            if (!started) {
                started = true;
                Hooks.start(s);
            }
            state.onBatchStart();
            q.rotate();
            long r = loop.drain(this, s);
            long n = r >>> 2;
            count += n;
            consumed = count;
            switch ((int) (r & 3)) {
                case StageAccess.Loop.STOPPED -> {
                    terminate();
                    return TERMINATED;
                }
                case StageAccess.Loop.FAILED -> {
                    Throwable e = failure;
                    failure = null;
                    network.failed(name, e);
                    terminate();
                    return TERMINATED;
                }
                case StageAccess.Loop.BUDGET_USED -> {
                    flushSignals();
                    q.wakeWaiter();
                    return BUDGET_USED;
                }
                default -> {
                    q.removeClosedLanes();
                    if (q.endOfStream()) {
                        Hooks.stop(s);
                        flushSignals();
                        out.complete();
                        terminate();
                        return TERMINATED;
                    }
                    flushSignals();
                    if (n == 0) {
                        return EMPTY;
                    }
                    q.wakeWaiter();
                    return DRAINED;
                }
            }
        } catch (Throwable e) {
            consumed = count;
            network.failed(name, e);
            terminate();
            return TERMINATED;
        }
    }

    // ------------------------------------------------------------ StageAccess.Loop's calls

    /** @return whether the network stopped (read before each item: a cancel is exact, I4) */
    public boolean stopRequested() {
        return network.stopped;
    }

    /** @return the next input item, or null if every source was empty when looked at */
    public I pollInput() {
        return input.poll();
    }

    /**
     * @param n items consumed in this turn so far (a multiple of ITEMS_PER_EVENT)
     * @return whether the scheduler's batch budget allows more
     */
    public boolean budgetLeft(long n) {
        return state.onBatchEvent(this, (int) (n / ITEMS_PER_EVENT));
    }

    /**
     * The stage's consume threw: the turn stops the network naming this stage.
     *
     * @param e what it threw
     */
    public void consumeFailed(Throwable e) {
        failure = e;
    }

    // ------------------------------------------------------------ hand-off (StageFusion)

    /**
     * Sets the thread that runs this frame's turn or a fused consume, or that holds it for a
     * fused run (its holder's thread, outside the frame's turn: StageDownstream.startFusing;
     * see the design block on {@code owner}).
     *
     * @param t the thread, or null when it stops running the frame
     */
    void own(Thread t) {
        owner = t;
    }

    /**
     * The owner's end of a turn with nothing left: {@link ActivationWord#idleOrReclaim()} (I2),
     * for StageFusion's nested turns.
     *
     * @return true if the caller owns the frame again (it must schedule or keep it)
     */
    boolean goIdle() {
        return idleOrReclaim();
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

    /**
     * {@link ActivationWord#idleOrReclaim()}'s re-check (I2); for a terminated frame only its
     * queue (I4): the stop flag and the end of stream stay set, and a terminated frame runs no turn.
     */
    @Override
    protected boolean workPending() {
        return terminated ? !input.isEmpty() : workLeft();
    }

    @Override
    boolean releaseIfTerminated() {
        if (!terminated) {
            return false;
        }
        drainToDeadLetters();
        while (idleOrReclaim()) {
            // an item arrived after the drain, or an MPSC producer has claimed a slot and not yet
            // written it (it may be preempted): let it run, then drain again
            Thread.yield();
            drainToDeadLetters();
        }
        return true;
    }

    /** Moves every queued item to dead letters, addressed to this stage (owner only, I4). */
    private void drainToDeadLetters() {
        input.drain(item -> network.dead(item, ref));
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
        // emits deferred before a stop or failure: their targets must still be activated, to
        // consume them or move them to dead letters (I4); a target this keeps as the hand-off is
        // run and released by the caller of turn() (execute, StageFusion.runNested)
        flushSignals();
        input.wakeWaiter(); // it sees the stop
        if (!input.isEmpty()) { // only after a stop: the items go to dead letters, not silently away
            drainToDeadLetters();
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
