package io.weft.actors.stream.internal;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The blocking emit: spin briefly, then park with a growing back-off until the target queue takes
 * the item or the network stops. On a ForkJoin worker the wait is a
 * {@link ForkJoinPool#managedBlock managed block}, so the pool adds a thread meanwhile and the
 * consumer still gets to run (no pool starvation).
 */
final class Waits {

    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private Waits() {
    }

    static <T> boolean offerBlocking(StageFrame<T, ?> target, T item) {
        for (int i = 0; i < 128; i++) {
            if (target.isStopped()) {
                target.dead(item);
                return false;
            }
            if (target.offer(item)) {
                return true;
            }
            Thread.onSpinWait();
        }
        Blocker<T> b = new Blocker<>(target, item);
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

    private static final class Blocker<T> implements ForkJoinPool.ManagedBlocker {
        private final StageFrame<T, ?> target;
        private final T item;
        private long park = 1_000;
        boolean sent;

        Blocker(StageFrame<T, ?> target, T item) {
            this.target = target;
            this.item = item;
        }

        @Override
        public boolean isReleasable() {
            if (sent || target.isStopped()) {
                return true;
            }
            sent = target.offer(item);
            return sent;
        }

        @Override
        public boolean block() throws InterruptedException {
            if (isReleasable()) {
                return true;
            }
            LockSupport.parkNanos(this, park);
            park = Math.min(park * 2, MAX_PARK_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException("blocking emit into stage '" + target.name() + "'");
            }
            return isReleasable();
        }
    }
}
