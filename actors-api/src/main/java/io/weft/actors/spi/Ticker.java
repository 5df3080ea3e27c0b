package io.weft.actors.spi;

/**
 * The time source of a system's timers ({@link io.weft.actors.Timers}). The default reads
 * {@link System#nanoTime()}, and the system advances its timers on a thread of its own. A
 * <em>manual</em> ticker (the test kit's {@code ManualClock}) moves only when told: the system
 * then starts no timer thread, and fires the timers that fall due from the listeners it registers
 * with {@link #onAdvance(Runnable)}, on the thread that moves the time.
 */
public interface Ticker {

    /** The ticker of {@link System#nanoTime()}. */
    Ticker SYSTEM = System::nanoTime;

    /**
     * @return the current time in nanoseconds, from an arbitrary origin; never decreasing
     */
    long nanoTime();

    /**
     * @return whether time moves only when a caller advances it (then {@link #onAdvance} must
     *     deliver every advance)
     */
    default boolean isManual() {
        return false;
    }

    /**
     * Registers {@code listener} to run, on the advancing thread, each time a manual ticker's time
     * has moved (after {@link #nanoTime()} shows the new time). Ignored by automatic tickers.
     *
     * @param listener what to run, not null
     */
    default void onAdvance(Runnable listener) {
    }
}
