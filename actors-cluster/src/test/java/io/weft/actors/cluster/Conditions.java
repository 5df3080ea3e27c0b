package io.weft.actors.cluster;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Bounded waits for this module's tests: a condition checked every 20 ms until it holds or the
 * time is up, and the next matching element of an event queue. Nothing here sleeps for a fixed time.
 */
final class Conditions {

    /** The bound most cluster tests use: generous, so a loaded machine does not fail them. */
    static final Duration LONG = Duration.ofSeconds(30);

    private static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private Conditions() {
    }

    /** Waits until {@code condition} holds; fails naming {@code description} if it does not within {@code within}. */
    static void await(Duration within, BooleanSupplier condition, String description) {
        await(within, condition, () -> description);
    }

    /** As {@link #await(Duration, BooleanSupplier, String)}, the description computed on failure (to show the state then). */
    static void await(Duration within, BooleanSupplier condition, Supplier<String> description) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not true within " + within.toSeconds() + " s: " + description.get());
            }
            LockSupport.parkNanos(STEP_NANOS);
        }
    }

    /** Takes elements from {@code queue} until one matches, for at most {@code within}; the ones before it are consumed. Null if none does. */
    static <E> E next(BlockingQueue<E> queue, Duration within, Predicate<? super E> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() - deadline < 0) {
            E e = queue.poll(100, TimeUnit.MILLISECONDS);
            if (e != null && wanted.test(e)) {
                return e;
            }
        }
        return null;
    }
}
