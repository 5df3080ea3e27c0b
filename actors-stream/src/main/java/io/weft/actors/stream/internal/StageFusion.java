package io.weft.actors.stream.internal;

import io.weft.actors.stream.Stage;

/**
 * The held side of the hand-off for one {@link StageFrame}: its turns run on the thread of the
 * producer that holds it ({@link #runNested}) and its consumes called straight from that producer's
 * emits ({@link #consume}, operator fusion). The holding side (which frame is held, when it is
 * given up) is {@link StageDownstream}'s; the frame's own turn and activation are
 * {@link StageFrame}'s.
 *
 * @param <I> the frame's input type
 */
final class StageFusion<I> {

    /* design
     * A frame is held when a flush of its producer, on a pool worker, won its activation and kept
     * it (StageDownstream's hand-off, Prokopec 2016, §5.2). While held, it is owned by the
     * holder's thread (StageDownstream, H1), and that thread does two things with it:
     *   nested turn: after each of the holder's turns, one turn of the held frame (runNested),
     *            with `nested` set so the frame never spins for input (its producer is this same
     *            thread, InputWait). Its outcome decides whether the holder keeps it:
     *            - terminated (end of stream, stop, failure): dropped;
     *            - budget used and items still queued: it falls behind its producer, so it goes to
     *              its scheduler and gets a worker of its own;
     *            - it consumed something (queued items in the turn, or fused items since its last
     *              turn), or work is left: it keeps up and stays held for the next turn;
     *            - else idle (the re-check of ActivationWord.idleOrReclaim, StageFrame I2); a
     *              reclaim keeps it held.
     *   fused consume: an emit into the held frame, while it has started, is not stopped and
     *            its queue is empty, calls its consume at once (consume, the operator fusion of
     *            Pekko Streams' fused graphs and of FastFlow's combined nodes, written for this
     *            frame model) instead of queueing the item. `owner` is set for the call, so the
     *            fused stage's own emits defer their signals; its next nested turn, right after
     *            the holder's turn, flushes them and adds `fused` to the frame's consumed count.
     *
     * Invariants (beside StageFrame's I1-I5 and StageDownstream's H1, I6):
     *   F1: a fused consume runs only while the frame is held (owned by the calling thread, H1)
     *       and outside the frame's own turn (nested turns run after the holder's turn), so
     *       consume never runs twice at once (StageFrame, I1).
     *   F2: a fused item never overtakes a queued one: it is fused only when the queue is empty,
     *       and the queue's only consumer is this frame, owned by the holder's thread (I6).
     *   F3: a failure in a fused consume stops the network naming this stage; the next nested
     *       turn sees the stop and terminates the frame (StageFrame, I4), so nothing is left
     *       owned and unrun.
     *   F4: a fused run (consumeInRun, StageDownstream's design block) needs no per-item check
     *       but the stop flag: the frame is held for the whole run (H1), it started before the
     *       run's first item, it terminates only in its own turns (which come after the run
     *       ends), and its SPSC queue, empty at the run's first item, has the emitter as its only
     *       producer, which fuses every item of the run, so it stays empty (F2): a conditional
     *       emit (tryEmit, emitIfBelow), which queues, ends the run first. After a stop (a
     *       cancel, or a failure of a fused consume, F3) the run's emits go to the queue, and
     *       from there to dead letters.
     * `nested` and `fused` are owner-only: written and read by the thread owning the frame, and
     * ownership passes with a happens-before edge (ActivationWord, A1).
     */

    private final StageFrame<I, ?> frame;
    private final Stage<I, ?> stage;
    private final StageInput<I> input;
    private final Network<?> network;

    /** Whether the frame runs nested in its holder's execute (no spinning for input then). */
    boolean nested;
    /** Items consumed fused since the frame's last turn. */
    private long fused;

    StageFusion(StageFrame<I, ?> frame, Stage<I, ?> stage, StageInput<I> input, Network<?> network) {
        this.frame = frame;
        this.stage = stage;
        this.input = input;
        this.network = network;
    }

    /**
     * At the start of the frame's turn: the items consumed fused since the last turn, now counted.
     *
     * @return how many there were
     */
    long takeFused() {
        long f = fused;
        if (f != 0) {
            fused = 0;
            if (StageStats.ON) {
                StageStats.FUSED.add(f);
            }
        }
        return f;
    }

    /**
     * One turn of the frame on its holder's thread (the hand-off).
     *
     * @return true if the holder still holds the frame (it keeps up and may get more input),
     *     false if it is idle, finished, or given to its scheduler
     */
    boolean runNested() {
        StageFrame<I, ?> f = frame;
        if (f.releaseIfTerminated()) {
            return false;
        }
        f.own(Thread.currentThread());
        nested = true;
        if (StageStats.ON) {
            StageStats.NESTED.increment();
        }
        boolean keptUp = fused != 0; // it consumed its holder's emits directly
        int r = f.turn();
        f.downstream.runHandOff();
        nested = false;
        f.downstream.releaseHandOff();
        f.own(null);
        if (r == StageFrame.TERMINATED) {
            f.releaseIfTerminated();
            return false;
        }
        if (r == StageFrame.BUDGET_USED && !input.isEmpty()) {
            // it falls behind its producer: a worker of its own. A turn that used its budget and
            // left the queue empty kept up (a 1:1 stage behind a producer with the same budget
            // consumes exactly a budget per turn): it stays held
            f.scheduler.schedule(f);
            if (StageStats.ON) {
                StageStats.RESUBMITS.increment();
            }
            return false;
        }
        if (keptUp || r != StageFrame.EMPTY || f.workLeft() || f.goIdle()) {
            return true; // it consumed (queued or fused items) and kept up, or work came back
        }
        if (StageStats.ON) {
            StageStats.IDLES.increment();
        }
        return false;
    }

    /**
     * Operator fusion: consumes {@code item} at once, on the thread of the frame that holds this
     * one and emits into it, instead of queueing it (F1-F3).
     *
     * @param item the item
     * @return false if it could not be fused (the caller queues it)
     */
    boolean consume(I item) {
        StageFrame<I, ?> f = frame;
        if (!f.started || f.isTerminated() || network.stopped || !input.isEmpty()) {
            return false;
        }
        f.own(Thread.currentThread());
        try {
            Hooks.consume(stage, item);
        } catch (Throwable e) {
            network.failed(f.name(), e); // its next nested turn sees the stop and terminates (F3)
        }
        f.own(null);
        fused++;
        return true;
    }

    /**
     * Operator fusion within a fused run (F4): consumes {@code item} at once; the checks of
     * {@link #consume} hold for the whole run, except the stop flag, read here.
     *
     * @param item the item
     * @return false if the network stopped (the caller queues it)
     */
    boolean consumeInRun(I item) {
        assert frame.ownedByCaller() : "fused run into '" + frame.name() + "' on a thread that does not own it";
        if (network.stopped) {
            return false;
        }
        try {
            Hooks.consume(stage, item);
        } catch (Throwable e) {
            network.failed(frame.name(), e); // the stop: later emits are queued (F3)
        }
        fused++;
        return true;
    }
}
