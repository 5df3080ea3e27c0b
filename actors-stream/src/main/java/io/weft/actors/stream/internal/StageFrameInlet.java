package io.weft.actors.stream.internal;

import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import java.lang.invoke.VarHandle;

/**
 * The producers' side of a {@link StageFrame}: the offers into its input (the inlet's, a
 * thread-based stage's, a feeder's lane, a pool stage's deferred ones), the end signals, and the
 * activation that follows them (StageFrame's design block: offer, feed, emit, end; I2, I5). What
 * it reads of the frame is written once ({@code input}, {@code scheduler}) or is the activation
 * word, all on the cache lines producers share (StageFramePad).
 *
 * @param <I> the input type
 */
abstract class StageFrameInlet<I> extends StageFramePad<I> implements Frame {

    /* design
     * Methods only, no fields: the layout of StageFramePad (the activation word and the fields
     * producers read, padded off the owner-only state of StageFrame) is unchanged. The protocol
     * is StageFrame's design block (offer, feed, end; I2, I5): an offer, then a fence where the
     * offer is not one (an SPSC main queue), then the activation (read the word, CAS 0 -> 1,
     * schedule). A feeder's lane is an SPSC queue, so its offer is followed by the fence too.
     * A terminated frame gives its word up, so the winner of a late activation is whoever offered
     * last: it drains the queue to dead letters itself (releaseIfTerminated, StageFrame I4).
     */

    StageFrameInlet(StageInput<I> input, Scheduler scheduler) {
        super(input, scheduler);
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
     * A feeder's offer into its own lane (a release store), then the full fence and the
     * activation (I2: the store is ordered before the read of {@code active}).
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
        if (tryActivate()) {
            if (StageStats.ON) {
                StageStats.WAKEUPS.increment();
            }
            scheduler.schedule(this);
        }
    }

    /**
     * The caller owns this frame (it won the activation word). If the frame has terminated, the
     * caller moves what reached its queue after the terminating drain to dead letters and gives
     * the word up (StageFrame, I4), instead of scheduling a frame that runs no more turns.
     *
     * @return whether the frame had terminated (the caller no longer owns it)
     */
    abstract boolean releaseIfTerminated();

    /**
     * @return whether this call won the activation (CAS 0 to 1) of a frame that still runs turns:
     *     the caller then owns it. A won activation of a terminated frame is finished here
     *     ({@link #releaseIfTerminated}) and returns false.
     */
    boolean tryActivate() {
        return activateIfIdle() && !releaseIfTerminated();
    }

    boolean registerWaiter(Thread t) {
        return input.registerWaiter(t);
    }

    void clearWaiter(Thread t) {
        input.clearWaiter(t);
    }
}
