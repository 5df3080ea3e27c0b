package io.weft.actors.stream;

import io.weft.actors.ActorRef;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A started network of stages, fed through its inlet or through {@link Feeder}s. Any thread or actor
 * may feed the inlet; items from one feeding thread keep their order into the first stage. After
 * {@link #complete()} (and the close of every feeder) the end of stream travels through every stage
 * (a farm finishes when all its replicas have), each stage's {@link Stage#onStop()} runs, and
 * {@link #completion()} completes.
 *
 * @param <I> the input type
 */
public interface RunningPipeline<I> {

    /**
     * Sends an item, waiting while the target queue is full (a blocking emit for thread-based
     * sources; on a ForkJoin worker the wait is a managed block).
     *
     * @param item the item, not null
     * @return true if the item was queued; false if the network was cancelled or failed, or
     *     {@link #complete()} was called (the item went to the system's dead letters). An item
     *     queued in a race with a cancel reaches a stage that has stopped: it goes to dead letters
     *     too, though this returned true
     */
    boolean put(I item);

    /**
     * Sends an item if the target queue has room.
     *
     * @param item the item, not null
     * @return false if the target queue is full, or if the network stopped or {@link #complete()}
     *     was called (the item then went to dead letters)
     */
    boolean offer(I item);

    /**
     * The {@code send_next_if} of Rinaldi et al. 2020: sends only if the target queue holds fewer than
     * {@code limit} items. For round-robin and random farms every replica is tried before failing.
     *
     * @param item the item, not null
     * @param limit the queue length at which to refuse, at least 1
     * @return whether the item was sent (after a stop or {@link #complete()} it was not, and went
     *     to dead letters)
     */
    boolean offerIfBelow(I item, int limit);

    /**
     * A lane of the calling thread's own into the first stage: cheaper per item than
     * {@link #put(Object)} for a single source thread (see {@link Feeder} for its contract).
     *
     * @return a new feeder, owned by the first thread that uses it
     * @throws IllegalStateException if {@link #complete()} was called
     */
    Feeder<I> feeder();

    /**
     * Ends the inlet's part of the stream: no more items will be fed through {@code put},
     * {@code offer} or {@code ref()} (later ones are refused and go to dead letters). The stream
     * ends when this has been called and every {@link Feeder} is closed. Idempotent.
     */
    void complete();

    /**
     * Fails the stream from outside: cancels every stage and fails {@link #completion()} with
     * {@code cause} wrapped in a {@link StageFailedException} naming the inlet.
     *
     * @param cause the reason
     */
    void fail(Throwable cause);

    /** Stops every stage without running {@code onStop}; queued items go to dead letters. */
    void cancel();

    /**
     * @return completes when every stage has finished after end of stream; fails, as soon as the
     *     network stops, with a {@link StageFailedException} naming the failing stage, or with
     *     {@link java.util.concurrent.CancellationException} after {@link #cancel()} (stages busy in
     *     {@code consume} stop when it returns; queued items go to the system's dead letters)
     */
    CompletableFuture<Void> completion();

    /** @return this network's inlet as an actor ref: {@code tell} is {@link #put(Object)} */
    ActorRef<I> ref();

    /** @return the number of stages running (a farm of n stages counts n; there are no routers) */
    int stageCount();

    /** @return for each stage name, how many items its input queue holds now (approximate) */
    Map<String, Integer> queueLengths();

    /**
     * @return for each stage name, how many items it has consumed (exact once finished); their sum
     *     is the number of queue hops the items made
     */
    Map<String, Long> consumedCounts();
}
