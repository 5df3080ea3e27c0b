package io.weft.actors.runtime.internal.system;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warnings a system logs about its actors' use of it (kept messages piling up, replies without
 * a sender): logged at WARN, handed to a listener if one is set (tests), and optionally rate-limited
 * to one a second with a count of the others.
 */
final class ActorWarnings {

    private static final Logger LOG = LoggerFactory.getLogger(WeftSystem.class);
    private static final long SECOND = 1_000_000_000L;

    private volatile Consumer<String> listener;
    private final AtomicLong lastLimited = new AtomicLong(System.nanoTime() - 2 * SECOND);
    private final AtomicLong suppressed = new AtomicLong();

    void listener(Consumer<String> l) {
        this.listener = l;
    }

    void warn(String message) {
        LOG.warn(message);
        Consumer<String> l = listener;
        if (l != null) {
            l.accept(message);
        }
    }

    /** At most one a second; the next one logged says how many were left out. */
    void warnRateLimited(String message) {
        long now = System.nanoTime();
        long last = lastLimited.get();
        if (now - last >= SECOND && lastLimited.compareAndSet(last, now)) {
            long others = suppressed.getAndSet(0);
            warn(others == 0 ? message : message + " [" + others + " similar warnings in the last second not logged]");
        } else {
            suppressed.incrementAndGet();
        }
    }
}
