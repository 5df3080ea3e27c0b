package io.weft.actors.stream.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.runtime.internal.system.WeftSystem;
import io.weft.actors.stream.Feeder;
import io.weft.actors.stream.RunningPipeline;
import io.weft.actors.stream.StageFailedException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The running network: its frames, its inlet, its completion; the shared stop flag.
 *
 * @param <I> the input type
 */
final class Network<I> implements RunningPipeline<I> {

    /* design
     * remaining = frames not yet terminated; the last frame to terminate completes `completion`
     * (normally, unless a failure or cancel completed it first). `stopped` is set once, by the
     * first failure or cancel; afterwards every frame is activated so it notices, drops its queue
     * and terminates; blocked emitters see it and give up. The inlet's outlet is shared by feeding
     * threads: its round-robin index may race, which only skews the distribution.
     * A feeder's lanes are added before `completed` is read (StageInput, L1): a feeder() that
     * finds the inlet not completed added its lanes before complete()'s end of stream, so the
     * first stages wait for its close; one that finds it completed closes its (empty) lanes and
     * throws.
     * The inlet (put, offer, offerIfBelow) and a feeder read `stopped` in opaque mode
     * (stoppedOpaque) before each item: a cancel that
     * happens-before the put is seen all the same (happens-before consistency holds for every
     * read), and one racing with the put has no "after" to honour; the opaque read is not
     * hoisted out of the feeding loop, and it does not order the loads that follow it, which a
     * volatile read does at a cost per item (docs/streaming.md). The check and the offer are two
     * steps in either mode, so a volatile read would not close the race of a put with a stop.
     */

    private static final VarHandle STOPPED;

    static {
        try {
            STOPPED = MethodHandles.lookup().findVarHandle(Network.class, "stopped", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    volatile boolean stopped;
    private final List<StageFrame<?, ?>> frames = new ArrayList<>();
    private final Map<String, StageFrame<?, ?>> byName = new LinkedHashMap<>();
    private final AtomicInteger remaining = new AtomicInteger();
    private final AtomicBoolean completed = new AtomicBoolean();
    private final CompletableFuture<Void> completion = new CompletableFuture<>();
    private final StreamRef<I> ref;
    private Outlet<I> entry;
    /** Makes a feeder's outlet: new lanes into the first stages. */
    private Supplier<Outlet<I>> lanes;

    private final ActorSystem system;

    Network(ActorSystem system, String name) {
        this.system = system;
        this.ref = new StreamRef<>(name, this::put);
    }

    /** Sends an item the network dropped (after a stop) to the system's dead letters. */
    void dead(Object item, ActorRef<?> recipient) {
        if (system instanceof WeftSystem ws) {
            ws.deadLetter(item, recipient, DeadLetter.Reason.RECIPIENT_STOPPED);
        }
    }

    /** @return the stop flag, read in opaque mode (a feeder's put; the design block) */
    boolean stoppedOpaque() {
        return (boolean) STOPPED.getOpaque(this);
    }

    /**
     * The stop check of an item fed through the inlet or a feeder: after a stop the item goes to
     * dead letters, addressed to the inlet, and the caller returns false.
     *
     * @param item the item being fed
     * @return whether the network has stopped
     */
    boolean deadIfStopped(Object item) {
        return refused(stoppedOpaque(), item);
    }

    /**
     * The inlet's check of an item: after a stop, or after {@link #complete()} (no more items
     * through the inlet), the item goes to dead letters, addressed to the inlet, and the caller
     * returns false. Both flags are read in opaque mode (the design block).
     */
    private boolean inletRefuses(I item) {
        return refused(stoppedOpaque() || completed.getOpaque(), item);
    }

    private boolean refused(boolean refuse, Object item) {
        if (refuse) {
            dead(item, ref);
            return true;
        }
        return false;
    }

    String uniqueName(String base) {
        String n = base;
        for (int k = 1; byName.containsKey(n); k++) {
            n = base + "#" + k;
        }
        byName.put(n, null);
        return n;
    }

    void add(StageFrame<?, ?> frame) {
        frames.add(frame);
        byName.put(frame.name(), frame);
        remaining.incrementAndGet();
    }

    void start(Outlet<I> entry, Supplier<Outlet<I>> lanes) {
        this.entry = entry;
        this.lanes = lanes;
        for (StageFrame<?, ?> f : frames) {
            f.activate(); // runs onStart
        }
    }

    void frameDone() {
        if (remaining.decrementAndGet() == 0) {
            ref.terminated();
            completion.complete(null);
        }
    }

    void failed(String stage, Throwable cause) {
        stop(new StageFailedException(stage, cause));
    }

    private void stop(Throwable reason) {
        if (!stopped) {
            stopped = true;
            completion.completeExceptionally(reason);
            for (StageFrame<?, ?> f : frames) {
                f.activate();
            }
        }
    }

    @Override
    public boolean put(I item) {
        Objects.requireNonNull(item, "item");
        return !inletRefuses(item) && entry.emit(item);
    }

    @Override
    public boolean offer(I item) {
        Objects.requireNonNull(item, "item");
        return !inletRefuses(item) && entry.tryEmit(item);
    }

    @Override
    public boolean offerIfBelow(I item, int limit) {
        Objects.requireNonNull(item, "item");
        if (limit < 1) {
            throw new IllegalArgumentException("limit: must be at least 1, was " + limit);
        }
        return !inletRefuses(item) && entry.emitIfBelow(item, limit);
    }

    @Override
    public Feeder<I> feeder() {
        if (completed.get()) {
            throw feederAfterComplete();
        }
        Outlet<I> out = lanes.get();
        if (completed.get()) { // complete() raced with this call: the lanes must not hold it up
            out.complete();
            throw feederAfterComplete();
        }
        return new LaneFeeder<>(this, out);
    }

    private IllegalStateException feederAfterComplete() {
        return new IllegalStateException("pipeline '" + ref.name()
                + "': feeder() after complete(); take every feeder before completing the inlet");
    }

    String name() {
        return ref.name();
    }

    @Override
    public void complete() {
        if (completed.compareAndSet(false, true)) {
            entry.complete();
        }
    }

    @Override
    public void fail(Throwable cause) {
        stop(new StageFailedException("inlet", Objects.requireNonNull(cause, "cause")));
    }

    @Override
    public void cancel() {
        stop(new CancellationException("stream cancelled"));
    }

    @Override
    public CompletableFuture<Void> completion() {
        return completion;
    }

    @Override
    public ActorRef<I> ref() {
        return ref;
    }

    @Override
    public int stageCount() {
        return frames.size();
    }

    @Override
    public Map<String, Integer> queueLengths() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (StageFrame<?, ?> f : frames) {
            m.put(f.name(), f.size());
        }
        return m;
    }

    @Override
    public Map<String, Long> consumedCounts() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (StageFrame<?, ?> f : frames) {
            m.put(f.name(), f.consumed());
        }
        return m;
    }

    @Override
    public String toString() {
        return "RunningPipeline[" + ref.name() + ", " + frames.size() + " stages]";
    }
}
