package io.weft.actors.loom;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The bounded wait of actors-loom's tests: a condition checked every 5 ms until it holds or the
 * time is up, then a failure naming what was awaited. Tests wait on conditions with it, never for
 * a fixed time.
 */
final class Conditions {

    /** The bound these tests use: generous, so a loaded machine does not fail them. */
    static final Duration LONG = Duration.ofSeconds(30);

    private static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

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
}
