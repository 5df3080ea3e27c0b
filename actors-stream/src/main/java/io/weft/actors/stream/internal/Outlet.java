package io.weft.actors.stream.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.stream.Policy;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Where one emitting stage (or the inlet) sends its items: a stage's typed queue, a farm's replicas
 * through the farm's policy (no router stage), an actor, or nowhere. Each emitting stage has its
 * own outlet, so policy state (the round-robin index) is owner-only.
 *
 * @param <T> the item type
 */
public abstract class Outlet<T> {

    Outlet() {
    }

    /**
     * Sends, waiting while the target is full.
     *
     * @param item the item
     * @return false if the network stopped
     */
    public abstract boolean emit(T item);

    /**
     * Sends from a stage's {@code onStart}, {@code consume} or {@code onStop} ({@code Stage.emit}):
     * {@link #emit}, or a fused run's direct consume (StageDownstream's design block). A method
     * of its own, so that its profile is not the inlet's and its fused-run path stays small
     * enough for the JIT to inline into the stage's consume loop (an inference from the CPU per
     * item it saves, StageDownstream's design block).
     *
     * @param item the item
     * @return false if the network stopped
     */
    public boolean emitFromStage(T item) {
        return emit(item);
    }

    /**
     * Sends if there is room.
     *
     * @param item the item
     * @return whether it was sent
     */
    public abstract boolean tryEmit(T item);

    /**
     * Sends if the target queue holds fewer than {@code limit}.
     *
     * @param item the item
     * @param limit the refusal threshold
     * @return whether it was sent
     */
    public abstract boolean emitIfBelow(T item, int limit);

    /** @return the target's queue length (the smallest replica's for a farm) */
    public abstract int queueLength();

    /** Signals end of stream from this producer to every target. */
    public abstract void complete();

    /**
     * Collects the stage outlets of this tree and records {@code from} as their emitter, whose
     * turn then defers their signals (StageDownstream's design block).
     *
     * @param from the emitting stage's frame
     * @param into where the stage outlets go
     */
    void stageTargets(StageFrame<?, ?> from, java.util.List<ToStage<?>> into) {
    }

    /** Into one stage's queue. */
    static final class ToStage<T> extends Outlet<T> {
        private final StageFrame<T, ?> target;
        /** The target's held side: an emit into it while its emitter holds it is fused. */
        private final StageFusion<T> fusion;
        private StageFrame<?, ?> from;
        boolean dirty;
        /**
         * Whether emits call the held target's consume directly, without the per-item checks of
         * {@link StageFusion#consume} (a fused run, StageDownstream's design block); written and
         * read by the thread owning the emitter (handed over by ActivationWord, A1).
         */
        boolean fusing;

        ToStage(StageFrame<T, ?> target) {
            this.target = target;
            this.fusion = target.fusion;
        }

        StageFrame<T, ?> target() {
            return target;
        }

        /** @return whether the emitter is this target's only producer (an SPSC input) */
        boolean soleProducer() {
            return target.input.spsc;
        }

        @Override
        void stageTargets(StageFrame<?, ?> emitter, java.util.List<ToStage<?>> into) {
            this.from = emitter;
            into.add(this);
        }

        /**
         * Before an item of a fused run's emitter goes into the queue (a conditional emit): the
         * run ends, so no later emit is fused past the queued item (StageFusion, F2, F4).
         */
        private void endFusedRun(StageFrame<?, ?> f) {
            if (fusing) {
                f.downstream.stopFusing();
            }
        }

        @Override
        public boolean emitFromStage(T item) {
            return fusing && from.ownedByCaller() && fusion.consumeInRun(item) || emit(item, true);
        }

        @Override
        public boolean emit(T item) {
            return emit(item, false);
        }

        /**
         * @param mayStartRun whether a fused consume may start a fused run: only from
         *     {@link #emitFromStage}, the emitter's own outlet; a farm's replica outlet (ToFarm
         *     calls {@link #emit}) never starts one, as its later emits do not come through
         *     {@code emitFromStage} and {@link StageFusion#consume} would clear the owner of the run
         */
        private boolean emit(T item, boolean mayStartRun) {
            StageFrame<?, ?> f = from;
            if (f != null && f.ownedByCaller()) {
                if (f.downstream.fuses(target) && fusion.consume(item)) {
                    if (mayStartRun && soleProducer()) {
                        f.downstream.startFusing(this);
                    }
                    return true;
                }
                if (target.offerQuietly(item)) {
                    f.deferred(this);
                    return true;
                }
                f.beforeWait();
            }
            return target.offer(item) || Waits.offerBlocking(target, item);
        }

        @Override
        public boolean tryEmit(T item) {
            StageFrame<?, ?> f = from;
            if (f != null && f.ownedByCaller()) {
                endFusedRun(f);
                if (target.offerQuietly(item)) {
                    f.deferred(this);
                    return true;
                }
                f.beforeWait(); // a refused emitter may retry in a loop: the consumer must run
                return false;
            }
            return target.offer(item);
        }

        @Override
        public boolean emitIfBelow(T item, int limit) {
            StageFrame<?, ?> f = from;
            if (f != null && f.ownedByCaller()) {
                endFusedRun(f);
                if (target.offerIfBelowQuietly(item, limit)) {
                    f.deferred(this);
                    return true;
                }
                f.beforeWait(); // a refused emitter may retry in a loop: the consumer must run
                return false;
            }
            return target.offerIfBelow(item, limit);
        }

        @Override
        public int queueLength() {
            return target.size();
        }

        @Override
        public void complete() {
            target.producerDone();
        }
    }

    /** Into a feeder's own SPSC lane of one stage (RunningPipeline.feeder()); used by that feeder only. */
    static final class ToLane<T> extends Outlet<T> {
        private final StageFrame<T, ?> target;
        private final StageInput.Lane<T> lane;
        /** Conditional offers left before the length is read again (StageInput's design block). */
        private int room;
        private int roomLimit;

        ToLane(StageFrame<T, ?> target) {
            this.target = target;
            this.lane = target.addLane();
        }

        @Override
        public boolean emit(T item) {
            return target.offer(lane, item) || Waits.offerBlocking(target, lane, item);
        }

        @Override
        public boolean tryEmit(T item) {
            return target.offer(lane, item);
        }

        @Override
        public boolean emitIfBelow(T item, int limit) {
            int r = room;
            if (r <= 0 || limit != roomLimit) {
                r = limit - lane.queue.size();
                roomLimit = limit;
                if (r <= 0) {
                    room = 0;
                    return false;
                }
            }
            if (!target.offer(lane, item)) {
                room = 0;
                return false;
            }
            room = r - 1;
            return true;
        }

        @Override
        public int queueLength() {
            return lane.queue.size();
        }

        @Override
        public void complete() {
            target.closeLane(lane);
        }
    }

    /** Into a farm: the farm's policy runs here, in the emitter (Rinaldi et al. 2020, Fig. 8). */
    static final class ToFarm<T> extends Outlet<T> {
        private final Outlet<T>[] children;
        private final Policy<? super T> policy;
        private final Policy.Kind kind;
        private int next;

        ToFarm(Outlet<T>[] children, Policy<? super T> policy) {
            this.children = children;
            this.policy = policy;
            this.kind = policy.kind();
        }

        private int start() {
            int n = children.length;
            if (kind == Policy.Kind.RANDOM) {
                return ThreadLocalRandom.current().nextInt(n);
            }
            int i = next;
            next = i + 1 == n ? 0 : i + 1;
            return i;
        }

        private int selected(T item) {
            return Math.floorMod(policy.select(item, children.length), children.length);
        }

        @Override
        public boolean emit(T item) {
            switch (kind) {
                case ROUND_ROBIN, RANDOM -> {
                    int n = children.length;
                    int s = start();
                    for (int k = 0; k < n; k++) {
                        int j = s + k;
                        if (children[j >= n ? j - n : j].tryEmit(item)) {
                            return true;
                        }
                    }
                    return children[s].emit(item);
                }
                case BROADCAST -> {
                    boolean all = true;
                    for (Outlet<T> c : children) {
                        all &= c.emit(item);
                    }
                    return all;
                }
                default -> {
                    return children[selected(item)].emit(item);
                }
            }
        }

        @Override
        public boolean tryEmit(T item) {
            return emitIfBelow(item, Integer.MAX_VALUE);
        }

        @Override
        public boolean emitIfBelow(T item, int limit) {
            switch (kind) {
                case ROUND_ROBIN, RANDOM -> {
                    int n = children.length;
                    int s = start();
                    for (int k = 0; k < n; k++) {
                        int j = s + k;
                        if (children[j >= n ? j - n : j].emitIfBelow(item, limit)) {
                            return true;
                        }
                    }
                    return false;
                }
                case BROADCAST -> {
                    for (Outlet<T> c : children) {
                        if (c.queueLength() >= limit) {
                            return false;
                        }
                    }
                    boolean all = true;
                    for (Outlet<T> c : children) {
                        all &= c.emit(item);
                    }
                    return all;
                }
                default -> {
                    return children[selected(item)].emitIfBelow(item, limit);
                }
            }
        }

        @Override
        void stageTargets(StageFrame<?, ?> from, java.util.List<ToStage<?>> into) {
            for (Outlet<T> c : children) {
                c.stageTargets(from, into);
            }
        }

        @Override
        public int queueLength() {
            int min = Integer.MAX_VALUE;
            for (Outlet<T> c : children) {
                min = Math.min(min, c.queueLength());
            }
            return min;
        }

        @Override
        public void complete() {
            for (Outlet<T> c : children) {
                c.complete();
            }
        }
    }

    /** Into an actor's mailbox; the mailbox's length is not visible, so {@code emitIfBelow} always sends. */
    static final class ToRef<T> extends Outlet<T> {
        private final ActorRef<? super T> ref;

        ToRef(ActorRef<? super T> ref) {
            this.ref = ref;
        }

        @Override
        public boolean emit(T item) {
            ref.tell(item);
            return true;
        }

        @Override
        public boolean tryEmit(T item) {
            return emit(item);
        }

        @Override
        public boolean emitIfBelow(T item, int limit) {
            return emit(item);
        }

        @Override
        public int queueLength() {
            return 0;
        }

        @Override
        public void complete() {
        }
    }

    /** The last stage of a network without downstream: emitting is a programming error. */
    static final class Nowhere<T> extends Outlet<T> {
        private final String stage;

        Nowhere(String stage) {
            this.stage = stage;
        }

        private IllegalStateException fail() {
            return new IllegalStateException("stage '" + stage
                    + "' is last and the network was started without a downstream; start it with a downstream ref");
        }

        @Override
        public boolean emit(T item) {
            throw fail();
        }

        @Override
        public boolean tryEmit(T item) {
            throw fail();
        }

        @Override
        public boolean emitIfBelow(T item, int limit) {
            throw fail();
        }

        @Override
        public int queueLength() {
            return 0;
        }

        @Override
        public void complete() {
        }
    }
}
