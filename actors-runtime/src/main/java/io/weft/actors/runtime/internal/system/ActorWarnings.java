package io.weft.actors.runtime.internal.system;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warnings a system logs about its actors' use of it (kept messages piling up, replies without
 * a sender): logged at WARN, handed to a listener if one is set (tests), and optionally rate-limited
 * to one a second with a count of the others.
 */
final class ActorWarnings {

    /* design
     * A warning raised on an actor's own path (a receive that keeps its 1,000th message, a reply
     * to a message without a sender) is built and logged on a virtual thread of its own,
     * "weft-<system>-warnings" (warnRateLimited, Later; the thread factory is made with the
     * system, so no name is built then): the actor pays the rate limit (a clock read and a CAS)
     * and, for an admitted warning, two small objects and the start of that thread. Building the
     * text (string concatenation, whose first run at a call site links it) and the logger's first
     * call (its formatter, console I/O) took 13-57 ms of that receive in a cold JVM. The system's
     * timer is not used for it: made on first use, it loads 15 classes and two lambdas (1.4-17.6
     * ms of that receive in a cold JVM at load 10-14) and its first execute starts a platform
     * thread (10-40 ms more there); docs/benchmarks.md, "Selective receive and mode switches". At
     * most one warning a second is admitted, so at most one such thread a second is started; the
     * others are counted in the next one.
     */

    private static final Logger LOG = LoggerFactory.getLogger(WeftSystem.class);
    private static final long SECOND = 1_000_000_000L;

    private volatile Consumer<String> listener;
    private final AtomicLong lastLimited = new AtomicLong(System.nanoTime() - 2 * SECOND);
    private final AtomicLong suppressed = new AtomicLong();
    /** Makes the virtual thread that logs a rate-limited warning (named once, here). */
    private final ThreadFactory loggers;

    /** @param systemName the system's name, in the logging thread's name */
    ActorWarnings(String systemName) {
        this.loggers = Thread.ofVirtual().name("weft-" + systemName + "-warnings").factory();
    }

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

    /**
     * The rate limit: at most one warning a second is logged.
     *
     * @return -1 if this warning is left out (it is counted), else how many were left out before it
     */
    long admit() {
        long now = System.nanoTime();
        long last = lastLimited.get();
        if (now - last >= SECOND && lastLimited.compareAndSet(last, now)) {
            return suppressed.getAndSet(0);
        }
        suppressed.incrementAndGet();
        return -1;
    }

    private static String withOthers(String message, long others) {
        return others == 0 ? message : message + " [" + others + " similar warnings in the last second not logged]";
    }

    /**
     * At most one a second, the next one logged saying how many were left out; the text built and
     * logged on a virtual thread of its own: the caller pays the rate limit and, if admitted, the
     * start of that thread.
     *
     * @param message builds the warning's text (called on the other thread)
     */
    void warnRateLimited(Supplier<String> message) {
        long others = admit();
        if (others >= 0) {
            loggers.newThread(new Later(this, message, others)).start();
        }
    }

    /** A warning's text built and logged off the thread that raised it (a class, not a lambda: no linkage on that thread). */
    private static final class Later implements Runnable {
        private final ActorWarnings warnings;
        private final Supplier<String> message;
        private final long others;

        Later(ActorWarnings warnings, Supplier<String> message, long others) {
            this.warnings = warnings;
            this.message = message;
            this.others = others;
        }

        @Override
        public void run() {
            warnings.warn(withOthers(message.get(), others));
        }
    }
}
