package io.weft.actors.stream.internal;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The blocking emit: spin briefly, yield a while, then park until the target queue takes the item
 * or the network stops. A parked emitter registers as the target's waiter, and the target's
 * consumer unparks it at the end of a turn that took items out, so it waits for room, not for a
 * timer; emitters that find the waiter slot taken park with a growing back-off (up to 1 ms). On a
 * ForkJoin worker the wait is a {@link ForkJoinPool#managedBlock managed block}, so the pool adds a
 * thread meanwhile and the consumer still gets to run (no pool starvation).
 */
final class Waits {

    /* design
     * Why not park at once: a park of any length sleeps for tens of microseconds on Linux (timer
     * slack), while a stage drains a full default queue (4096 items) in about as long; an emitter
     * that parks with a timer lets the queue run empty and the consumer go idle, so every refill
     * costs an activation too. Spinning first covers a consumer on another core, yielding covers a
     * consumer on the emitter's own core.
     * No lost wake-up (W1): the waiter stores itself in the target's `waiter` (a CAS, a full fence)
     * and then retries the offer; the consumer takes items out and then, after a full fence, reads
     * `waiter`. Either the retry finds the room the consumer made, or the consumer sees the waiter
     * and unparks it. Every park is also bounded (MAX_PARK_NANOS), so a waiter never depends on the
     * unpark alone.
     */

    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int SPINS = 128;
    private static final int YIELDS = 64;

    private Waits() {
    }

    static <T> boolean offerBlocking(StageFrame<T, ?> target, T item) {
        return offerBlocking(target, null, item);
    }

    /**
     * Offers into {@code target}'s main queue, or into a feeder's {@code lane} of it, waiting while
     * it is full.
     *
     * @param target the frame
     * @param lane a feeder's lane into it, or null for its main queue
     * @param item the item
     * @param <T> the item type
     * @return false if the network stopped (the item went to dead letters) or the wait was
     *     interrupted
     */
    static <T> boolean offerBlocking(StageFrame<T, ?> target, StageInput.Lane<T> lane, T item) {
        for (int i = 0; i < SPINS + YIELDS; i++) {
            if (target.isStopped()) {
                target.dead(item);
                return false;
            }
            if (offer(target, lane, item)) {
                return true;
            }
            if (i < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        if (StageStats.ON) {
            StageStats.BLOCKED.increment();
        }
        Blocker<T> b = new Blocker<>(target, lane, item);
        try {
            if (Thread.currentThread() instanceof ForkJoinWorkerThread) {
                ForkJoinPool.managedBlock(b);
            } else {
                while (!b.block()) {
                    // parks inside block()
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            target.dead(item);
            return false;
        }
        if (!b.sent) {
            target.dead(item);
        }
        return b.sent;
    }

    private static <T> boolean offer(StageFrame<T, ?> target, StageInput.Lane<T> lane, T item) {
        return lane == null ? target.offer(item) : target.offer(lane, item);
    }

    private static final class Blocker<T> implements ForkJoinPool.ManagedBlocker {
        private final StageFrame<T, ?> target;
        private final StageInput.Lane<T> lane;
        private final T item;
        private long park = 1_000;
        boolean sent;

        Blocker(StageFrame<T, ?> target, StageInput.Lane<T> lane, T item) {
            this.target = target;
            this.lane = lane;
            this.item = item;
        }

        @Override
        public boolean isReleasable() {
            if (sent || target.isStopped()) {
                return true;
            }
            sent = offer(target, lane, item);
            return sent;
        }

        @Override
        public boolean block() throws InterruptedException {
            if (isReleasable()) {
                return true;
            }
            Thread self = Thread.currentThread();
            boolean registered = target.registerWaiter(self);
            try {
                if (!isReleasable()) { // W1: the retry after the registration
                    if (StageStats.ON) {
                        StageStats.PARKS.increment();
                    }
                    LockSupport.parkNanos(this, registered ? MAX_PARK_NANOS : park);
                }
            } finally {
                if (registered) {
                    target.clearWaiter(self);
                }
            }
            park = Math.min(park * 2, MAX_PARK_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException("blocking emit into stage '" + target.name() + "'");
            }
            return isReleasable();
        }
    }
}
