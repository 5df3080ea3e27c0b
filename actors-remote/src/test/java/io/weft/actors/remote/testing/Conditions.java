package io.weft.actors.remote.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The bounded wait of actors-remote's tests: a condition checked every 10 ms until it holds or the
 * time is up, then a failure naming what was awaited. Tests wait on conditions with it, never for a
 * fixed time. Its own package: {@code io.weft.actors.remote} and {@code io.weft.actors.remote.transport}
 * are packages of the main module.
 */
public final class Conditions {

    /** The bound most remoting tests use: generous, so a loaded machine does not fail them. */
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
}
