package io.weft.actors.stream.internal;

import io.weft.actors.spi.Scheduler;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The downstream side of one {@link StageFrame}: the stage outlets its turns emit into, their
 * deferred activation (one fence per flush, not per item) and the downstream frame it holds and
 * runs after its own turns (the hand-off). Owner-only: only the thread that owns the frame's turn
 * calls it. The frame itself counts the deferred emits (the per-item path) and calls
 * {@link #activateMarked} when it flushes.
 */
final class StageDownstream {

    /* design
     *   emit from a stage's turn on a pool worker (deferred signals): queue.offer(item) only, and
     *            the target is marked (ToStage.dirty); every StageFrame.SIGNAL_EVERY emits, at the
     *            end of each turn, before a blocking emit waits and when a conditional emit is
     *            refused, the emitter flushes: one full fence, then the activation (StageFrame's
     *            design block) for each marked target. So an item costs the queue's release store
     *            and no fence; a batch costs one fence.
     *   hand-off (Prokopec 2016, §5.2, lazy scheduling, applied to stages): when a flush on a
     *            pool worker wins the activation of a target on the same scheduler, the emitter
     *            keeps it (`handOff`, still owned: A1 travels with it) instead of pushing it to the
     *            pool, and runs one turn of it after each of its own turns, on the same thread
     *            (StageFusion.runNested; no spinning there). A held frame whose nested turn ends with
     *            its budget used and items left in its queue (it falls behind: its producer emits
     *            more than it consumes per turn) is given to the scheduler, so a slower downstream
     *            gets a worker of its own. A held frame whose nested turn consumed items and left
     *            its queue empty, or that consumed fused items since its last turn, keeps up and
     *            stays held (owned) for the emitter's next turn, instead of going idle and being
     *            activated again by the next flush; with nothing consumed it goes idle.
     *            The emitter also gives it to the scheduler before it stops owning itself, before a
     *            blocking emit waits and when a conditional emit is refused (the held frame is the
     *            consumer that must make room). When the emitter goes back to its scheduler's queue
     *            with its budget used (still owned), a held frame with an SPSC input (the emitter is
     *            its only producer, so it has no other input to wait for) stays held and goes
     *            with it (H2); any other held frame is given to its scheduler. Giving a held sink
     *            up at each such resubmit cost the 3-stage pipeline a pool task, usually a worker
     *            wake-up, and an idle transition per resubmit (about 100 per 5 M items). So a
     *            chain of cheap stages runs on one worker, in batches, with its caches, while its
     *            source feeds it from another core.
     *   fusion (the operator fusion of Pekko Streams' fused graphs and of FastFlow's combined
     *            nodes, written for this frame model): an emit into the held frame, when that
     *            frame has started, is not stopped and its queue is empty, calls the frame's
     *            consume on the emitter's thread (StageFusion.consume) instead of queueing the
     *            item: no queue write and read per item. The fused frame's `owner` is set for the
     *            call, so its own emits defer their signals; its next nested turn (right after
     *            the emitter's turn) flushes them and adds the fused count to `consumed`. A
     *            failure in a fused consume stops the network naming the fused stage; its next
     *            nested turn sees the stop and terminates it (StageFrame, I4).
     *   fused run: when the held frame's input is SPSC (the emitter is its only producer), the
     *            first emit that fuses starts a run (startFusing): the outlet's `fusing` flag is
     *            set and the held frame's `owner` stays this thread, so the next emits call its
     *            consume with only the owner check and the stop flag per item
     *            (Outlet.emitFromStage, StageFusion.consumeInRun, kept small so that the JIT
     *            can inline them into the emitter's consume loop). The run ends (stopFusing) before the
     *            held frame's nested turn, before it is given up (with the held frame's own run,
     *            if its fused consume started one), and at the emitter's resubmit; the next emit
     *            that fuses starts a new one. Only the emitter's own outlet starts a run
     *            (emitFromStage), never a farm's replica outlet. The stopFusing when the emitter's
     *            execute starts is a defence: a run starts only in the emitter's turn or in a
     *            fused consume of it, and both end it before the emitter is given up. The per-item checks of
     *            StageFusion.consume hold for the whole run (StageFusion, F4); a conditional emit,
     *            which queues, ends the run first. Measured on the 3-stage pipeline: without runs
     *            forwarder plus fused sink took 14.1 ns of CPU per item against the 2-stage sink's
     *            7.6; with runs 10.1 against 7.2 (docs/streaming.md, "Fused runs against main").
     *            That the drop comes from inlining (the emit without runs, with the queue path and
     *            the per-item checks, too big to inline) is an inference from it, not a JIT log.
     *
     * Invariants (beside StageFrame's I1-I5):
     *   H1: a held hand-off frame is owned by its holder's thread (StageFrame, I1); it is run
     *       (runNested), given to the scheduler, or finished, and never dropped while owned.
     *   H2: a held frame goes back to the scheduler's queue with its holder only if the holder
     *       is its only producer; the holder's next execute runs it (runHandOff) or gives it up,
     *       and a stop or end of stream, which cannot activate a held frame, reaches it there.
     *   I6: per-producer order: deferred signals change when a consumer is woken, never the order
     *       of a queue; one producer's items enter a queue in emit order. A fused item is consumed
     *       only when the queue is empty, and the queue's only consumer is the fused frame, owned
     *       by the emitter's thread, so no queued item is overtaken.
     *   F1-F3: the held frame's side (one consume at a time, no overtaking, failures) is
     *       StageFusion's design block.
     *   No lost wake-up (StageFrame, I2): every turn of the emitter ends with a flush, whose fence
     *   orders the deferred offers before the reads of the targets' `active`.
     */

    /**
     * Whether a flush may keep an activated target (the hand-off); {@code -Dweft.stream.handOff=false}
     * gives every stage its own pool task instead (a measurement switch: dedicated workers).
     */
    static final boolean HAND_OFF = !"false".equals(System.getProperty("weft.stream.handOff"));
    /**
     * Whether an emit into a held target with an empty queue calls its consume at once (fusion);
     * {@code -Dweft.stream.fusion=false} queues every item (a measurement switch).
     */
    static final boolean FUSION = HAND_OFF && !"false".equals(System.getProperty("weft.stream.fusion"));

    /** The scheduler of the emitting frame: a target on it may be held instead of pushed. */
    private final Scheduler scheduler;
    /** The stage outlets the frame emits into (deferred signals); set once, at connect. */
    private Outlet.ToStage<?>[] targets = new Outlet.ToStage<?>[0];
    /** A downstream frame the emitter activated and runs after its own turns; owned while set. */
    private StageFrame<?, ?> handOff;
    /** The outlet into {@link #handOff} in a fused run (F4), or null; owner-only (the thread owning the emitter). */
    private Outlet.ToStage<?> fusing;

    StageDownstream(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Collects the stage outlets of {@code outlet} and records {@code emitter} as their emitter.
     *
     * @param emitter the emitting frame
     * @param outlet the emitting stage's outlet
     */
    void connect(StageFrame<?, ?> emitter, Outlet<?> outlet) {
        List<Outlet.ToStage<?>> t = new ArrayList<>();
        outlet.stageTargets(emitter, t);
        this.targets = t.toArray(new Outlet.ToStage<?>[0]);
    }

    /**
     * One full fence, then the activation of each target that got items since the last flush
     * (I2). On a pool worker, a target on the same scheduler that this flush activates is kept as
     * the hand-off instead of being pushed to the pool, if none is held yet.
     *
     * @param onWorker whether the emitter's turn runs on a pool worker (its owner is set)
     */
    void activateMarked(boolean onWorker) {
        VarHandle.fullFence();
        for (Outlet.ToStage<?> o : targets) {
            if (o.dirty) {
                o.dirty = false;
                StageFrame<?, ?> t = o.target();
                if (t.tryActivate()) {
                    if (HAND_OFF && handOff == null && t.scheduler == scheduler && onWorker) {
                        handOff = t;
                    } else {
                        t.scheduler.schedule(t);
                    }
                }
            }
        }
    }

    /** @return whether a downstream frame is held and has work for a turn */
    boolean heldHasWork() {
        StageFrame<?, ?> h = handOff;
        return h != null && h.workLeft();
    }

    /**
     * @param target a frame the emitter emits into
     * @return whether it is the held frame and fusion is on
     */
    boolean fuses(StageFrame<?, ?> target) {
        return FUSION && handOff == target;
    }

    /**
     * Starts a fused run into the held frame: its outlet's emits call its consume directly until
     * {@link #stopFusing}, and the held frame's {@code owner} stays this thread meanwhile (F4).
     *
     * @param o the outlet into the held frame, whose fused consume just succeeded
     */
    void startFusing(Outlet.ToStage<?> o) {
        if (fusing == null) {
            o.target().own(Thread.currentThread());
            o.fusing = true;
            fusing = o;
        }
    }

    /**
     * Ends the fused run, if any: before the held frame's own turn, before it is given up, and
     * when the emitter's execute starts (its owner may be another thread than the run's).
     */
    void stopFusing() {
        Outlet.ToStage<?> o = fusing;
        if (o != null) {
            fusing = null;
            o.fusing = false;
            o.target().own(null);
        }
    }

    /** Runs the held downstream frame for one turn; keeps it while it is owned and keeping up. */
    void runHandOff() {
        StageFrame<?, ?> h = handOff;
        if (h != null) {
            stopFusing();
            if (!h.fusion.runNested()) {
                handOff = null;
            }
        }
    }

    /**
     * Before the emitter goes back to its scheduler's queue, still owned (budget used): a held
     * frame that only this emitter feeds (an SPSC input) stays held and goes with it (H2); any
     * other held frame is given to its scheduler.
     */
    void beforeResubmit() {
        StageFrame<?, ?> h = handOff;
        if (h != null && h.input.spsc) {
            stopFusing();
        } else {
            releaseHandOff();
        }
    }

    /**
     * Gives the held downstream frame to its scheduler (it stays owned: ownership travels, A1).
     * Its own fused run, if a fused consume of it started one into the frame it holds, ends
     * here too (this thread owns it, H1), so no run outlives its emitter's release.
     */
    void releaseHandOff() {
        StageFrame<?, ?> h = handOff;
        if (h != null) {
            stopFusing();
            h.downstream.stopFusing();
            handOff = null;
            h.scheduler.schedule(h);
        }
    }
}
