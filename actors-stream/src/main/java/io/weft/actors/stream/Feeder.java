package io.weft.actors.stream;

/**
 * One source thread's own lane into a running network's first stage ({@link RunningPipeline#feeder()}):
 * a bounded single-producer queue, so a {@code put} costs a release store and one fence, where the
 * shared inlet ({@link RunningPipeline#put(Object)}, which any thread may call at any time) costs a
 * compare-and-set on a queue that all feeding threads share. For a farm as the first node, the
 * feeder has a lane into each replica and applies the farm's policy itself.
 *
 * <p><b>One thread.</b> A feeder belongs to the first thread that calls one of its methods; a call
 * from any other thread throws {@link IllegalStateException} naming both threads (the lane has one
 * producer; a second one would corrupt it). Each source thread takes its own feeder.
 *
 * <p><b>Order and visibility.</b> The items of one feeder reach the first stage in {@code put}
 * order. Everything the feeder's thread did before a {@code put} (or {@code offer}) of an item
 * happens-before the stage's {@code consume} of that item. Items of different feeders, and of the
 * shared inlet, interleave in no given order.
 *
 * <p><b>Back-pressure.</b> The lane is as large as the first stage's capacity: {@link #put} waits
 * while it is full (spinning briefly, then parking until the stage takes items out; a managed block
 * on a ForkJoin worker), {@link #offer} and {@link #offerIfBelow} refuse instead.
 *
 * <p><b>End of stream.</b> The stream ends after {@link RunningPipeline#complete()} and the
 * {@link #close()} of every feeder, whichever comes last: a feeder's items put before its
 * {@code close} are all consumed, and {@code close} happens-before the first stage's
 * {@code onStop}. Take feeders before {@code complete()}. After a cancel or a failure of the
 * network, {@code put} and {@code offer} return false and the item goes to the system's dead
 * letters.
 *
 * @param <I> the input type
 */
public interface Feeder<I> extends AutoCloseable {

    /**
     * Sends an item through this feeder's lane, waiting while the lane is full.
     *
     * @param item the item, not null
     * @return false if the network was cancelled or failed (the item went to dead letters)
     * @throws IllegalStateException if another thread owns this feeder, or it is closed
     */
    boolean put(I item);

    /**
     * Sends an item if the lane has room.
     *
     * @param item the item, not null
     * @return false if the lane is full or the network stopped
     * @throws IllegalStateException if another thread owns this feeder, or it is closed
     */
    boolean offer(I item);

    /**
     * The {@code send_next_if} of Rinaldi et al. 2020 on this feeder's lane: sends only if the lane
     * holds fewer than {@code limit} items (for a farm, every replica's lane is tried).
     *
     * @param item the item, not null
     * @param limit the lane length at which to refuse, at least 1
     * @return whether the item was sent
     * @throws IllegalStateException if another thread owns this feeder, or it is closed
     */
    boolean offerIfBelow(I item, int limit);

    /**
     * Ends this feeder's part of the stream: its items already sent are still consumed. Idempotent.
     *
     * @throws IllegalStateException if another thread owns this feeder
     */
    @Override
    void close();
}
