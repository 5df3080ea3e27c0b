package io.weft.actors.runtime.internal;

import java.util.concurrent.atomic.LongAdder;

/** Per-system message counts; striped counters so that hot senders do not contend. */
final class Metrics {
    private final LongAdder sent = new LongAdder();
    private final LongAdder handled = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    void sent() {
        sent.increment();
    }

    void handled() {
        handled.increment();
    }

    void dropped() {
        dropped.increment();
    }

    long sentCount() {
        return sent.sum();
    }

    long handledCount() {
        return handled.sum();
    }

    long droppedCount() {
        return dropped.sum();
    }
}
