package io.weft.actors.runtime.toolbox;

import io.weft.actors.spi.Ticker;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** A manual {@link Ticker} for runtime tests: time moves only in {@link #advance(Duration)}. */
final class StepTicker implements Ticker {

    private final AtomicLong now = new AtomicLong();
    private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();

    @Override
    public long nanoTime() {
        return now.get();
    }

    @Override
    public boolean isManual() {
        return true;
    }

    @Override
    public void onAdvance(Runnable listener) {
        listeners.add(listener);
    }

    /** Moves time and fires the due timers on this thread. */
    void advance(Duration by) {
        now.addAndGet(by.toNanos());
        listeners.forEach(Runnable::run);
    }
}
