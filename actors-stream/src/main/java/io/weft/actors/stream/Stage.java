package io.weft.actors.stream;

import io.weft.actors.stream.internal.Outlet;
import io.weft.actors.stream.internal.StageAccess;
import io.weft.actors.stream.internal.StageFrame;
import java.util.Objects;

/**
 * A streaming operator with one input type (Rinaldi et al. 2020, Fig. 6, {@code SeqNode}): the runtime calls
 * {@link #onStart()}, then {@link #consume(Object)} for each input in order, then
 * {@link #onStop()} at end of stream; the operator sends results to the next node with
 * {@link #emit(Object)}. Items travel through typed bounded queues straight into the next stage,
 * never through an actor mailbox, and there is no dispatch on message type.
 *
 * <p>A stage instance runs in exactly one place: never put the same instance twice in a network
 * (farms take a factory). Its methods run one at a time, so its fields need no synchronization.
 * It runs on the system's ForkJoin scheduler, or on a virtual thread of its own after
 * {@link #onThread()} (for blocking I/O in {@code consume}).
 *
 * @param <I> the input type
 * @param <O> the output type
 */
public abstract non-sealed class Stage<I, O> implements Node<I, O> {

    static {
        StageAccess.install(new StageAccess() {
            @Override
            protected <T> void bind(Stage<?, T> stage, StageFrame<?, T> frame, Outlet<T> outlet) {
                if (stage.frame != null) {
                    throw new IllegalStateException("stage '" + stage.name()
                            + "' is already part of a running network; farms need a new stage per replica");
                }
                stage.frame = frame;
                stage.out = outlet;
            }

            @Override
            protected <T> void consume(Stage<T, ?> stage, T item) throws Exception {
                stage.consume(item);
            }

            @Override
            protected void start(Stage<?, ?> stage) throws Exception {
                stage.onStart();
            }

            @Override
            protected void stop(Stage<?, ?> stage) throws Exception {
                stage.onStop();
            }

            @Override
            protected String name(Stage<?, ?> stage) {
                return stage.name;
            }

            @Override
            protected int capacity(Stage<?, ?> stage) {
                return stage.capacity;
            }

            @Override
            protected boolean onThread(Stage<?, ?> stage) {
                return stage.onThread;
            }

            @Override
            protected Loop loop(Stage<?, ?> stage) {
                return ConsumeLoops.of(stage.getClass());
            }
        });
    }

    /** The default input queue capacity. */
    public static final int DEFAULT_CAPACITY = 4096;

    private String name;
    private int capacity = DEFAULT_CAPACITY;
    private boolean onThread;
    private StageFrame<?, O> frame;
    private Outlet<O> out;

    /** A stage named after its class. */
    protected Stage() {
        this.name = getClass().getSimpleName().isEmpty() ? "stage" : getClass().getSimpleName();
    }

    /**
     * Handles one input item.
     *
     * @param item the item, never null
     * @throws Exception to fail the network, naming this stage
     */
    protected abstract void consume(I item) throws Exception;

    /**
     * Called once before the first item.
     *
     * @throws Exception to fail the network
     */
    protected void onStart() throws Exception {
    }

    /**
     * Called once at end of stream, after the last item; may still emit.
     *
     * @throws Exception to fail the network
     */
    protected void onStop() throws Exception {
    }

    /**
     * Sends an item to the next node, waiting while the target queue is full (a managed block on a
     * ForkJoin worker, a park on a stage's own thread). When this returns the item is in the
     * target's queue, or, if the target stage runs on this stage's worker with an empty queue (a
     * fused consume), already consumed by it. On the ForkJoin scheduler a queued item's target is
     * woken in batches: after every 64 emits, when this stage's turn ends, and before an emit
     * waits, so a {@code consume} that emits and then blocks on something else (not on the target)
     * delays up to 63 items until it returns. A stage that blocks should be {@link #onThread()},
     * whose emits wake the target at once. After the network stopped (a cancel or a failure) the
     * item is not consumed: it goes into the target's queue and from there to dead letters (this
     * returns true), or, if that queue is full, to dead letters at once (this returns false).
     *
     * @param item the item, not null
     * @return false if the network stopped while this waited for room (the item went to dead
     *     letters); true once the item was queued or consumed
     * @throws IllegalStateException if this stage is last and the network has no downstream
     */
    protected final boolean emit(O item) {
        return outlet().emitFromStage(Objects.requireNonNull(item, "item"));
    }

    /**
     * The {@code send_next_if} of Rinaldi et al. 2020: sends only if the target queue holds fewer than
     * {@code limit} items; round-robin and random farms try every replica first.
     *
     * @param item the item, not null
     * @param limit refuse when the target queue holds this many, at least 1
     * @return whether the item was sent
     */
    protected final boolean emitIfBelow(O item, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit: must be at least 1, was " + limit);
        }
        return outlet().emitIfBelow(Objects.requireNonNull(item, "item"), limit);
    }

    /** @return how many items the next node's queue (the smallest, for a farm) holds now */
    protected final int downstreamQueueLength() {
        return outlet().queueLength();
    }

    /** @return how many items this stage's own input queue holds now */
    protected final int queueLength() {
        StageFrame<?, O> f = frame;
        return f == null ? 0 : f.size();
    }

    private Outlet<O> outlet() {
        Outlet<O> o = out;
        if (o == null) {
            throw new IllegalStateException("stage '" + name + "' is not running");
        }
        return o;
    }

    /**
     * @param name the name used in errors and statistics
     * @return this
     */
    public final Stage<I, O> named(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return this;
    }

    /**
     * @param capacity the input queue's bound, at least 4 (rounded up to a power of two)
     * @return this
     */
    public final Stage<I, O> withCapacity(int capacity) {
        if (capacity < 4) {
            throw new IllegalArgumentException("capacity: must be at least 4, was " + capacity);
        }
        this.capacity = capacity;
        return this;
    }

    /**
     * Runs this stage as a thread-based actor on a virtual thread of its own (with actors-loom; a
     * dedicated platform thread without it), so that {@code consume} may block on I/O.
     *
     * @return this
     */
    public final Stage<I, O> onThread() {
        this.onThread = true;
        return this;
    }

    /** @return the stage's name */
    public final String name() {
        return name;
    }

    @Override
    public String toString() {
        return "Stage[" + name + "]";
    }
}
