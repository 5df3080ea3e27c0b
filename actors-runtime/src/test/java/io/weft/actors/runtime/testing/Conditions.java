package io.weft.actors.runtime.testing;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Bounded waits for tests, shared through actors-runtime's test jar by the modules above it
 * (actors-loom, actors-remote, actors-cluster): a condition checked every 10 ms until it holds or
 * the time is up, then a failure naming what was awaited; and the next matching element of an event
 * queue. Nothing here sleeps for a fixed time.
 */
public final class Conditions {

    /** The bound most tests use: generous, so a loaded machine does not fail them. */
    public static final Duration LONG = Duration.ofSeconds(30);

    private static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private Conditions() {
    }

    /**
     * Waits until {@code condition} holds.
     *
     * @param within how long to wait at most
     * @param condition what to wait for
     * @param description what was awaited, for the failure
     * @throws AssertionError if the condition does not hold within {@code within}
     */
    public static void await(Duration within, BooleanSupplier condition, String description) {
        await(within, condition, () -> description);
    }

    /**
     * As {@link #await(Duration, BooleanSupplier, String)}, the description computed on failure (to show the state then).
     *
     * @param within how long to wait at most
     * @param condition what to wait for
     * @param description what was awaited, for the failure
     * @throws AssertionError if the condition does not hold within {@code within}
     */
    public static void await(Duration within, BooleanSupplier condition, Supplier<String> description) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not true within " + within.toSeconds() + " s: " + description.get());
            }
            LockSupport.parkNanos(STEP_NANOS);
        }
    }

    /**
     * Takes elements from {@code queue} until one matches, for at most {@code within}; the ones
     * before it are consumed.
     *
     * @param queue where the elements arrive
     * @param within how long to wait at most
     * @param wanted which element to return
     * @param <E> the element type
     * @return the first matching element, or null if none came within {@code within}
     * @throws InterruptedException if interrupted while waiting
     */
    public static <E> E next(BlockingQueue<E> queue, Duration within, Predicate<? super E> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() - deadline < 0) {
            E e = queue.poll(50, TimeUnit.MILLISECONDS);
            if (e != null && wanted.test(e)) {
                return e;
            }
        }
        return null;
    }
}
