package io.weft.actors.runtime.internal.telemetry;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;
import io.weft.actors.DeadLetters;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts, publishes and logs dead letters. A {@link DeadLetter} that is itself undeliverable (its
 * subscriber stopped) is counted but not published again. The runtime's own {@link Internal}
 * messages are counted apart and dropped. A dead letter whose sender is a
 * {@link ReplyWaiter} (an ask) whose request can no longer be answered tells it at once.
 */
public final class DeadLetterOffice extends Listeners<DeadLetter> implements DeadLetters {

    /* design
     * Logging (INFO, on by default, ActorSystem.Builder.logDeadLetters): the first dead letter of
     * a quiet period is logged at once and opens a window of one second; the ones that follow
     * within it are only counted (with the first of them described), and the window's count is
     * logged as one line ("12 dead letters in the last second, first: ...") by the first dead
     * letter after the window, or by tick() (the system's timer, once a second), or by flush() at
     * close, whichever comes first. So a burst costs at most two lines a second, and the count of
     * every window is logged. The window is guarded by a ReentrantLock held for a few field
     * writes (never while logging, never with `synchronized`, so a virtual thread does not pin);
     * with logging off, publish takes no lock. Time comes from an injectable clock so tests need
     * not sleep.
     */

    /** A sender waiting for a reply (an ask) that fails at once when its request is dead. */
    public interface ReplyWaiter {
        /**
         * The request sent with this waiter as its sender went to dead letters.
         *
         * @param recipient who it was for
         * @param reason why it is dead
         */
        void requestDead(ActorRef<?> recipient, DeadLetter.Reason reason);
    }

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterOffice.class);
    /** The logging window: one second. */
    public static final long WINDOW_NANOS = 1_000_000_000L;
    private static final Consumer<String> INFO = DeadLetterOffice::logInfo;

    private final LongAdder count = new LongAdder();
    private final LongAdder internal = new LongAdder();
    private final LongAdder[] byReason = new LongAdder[DeadLetter.Reason.values().length];
    private final boolean logging;
    private final LongSupplier clock;
    private final Consumer<String> sink;
    private final ReentrantLock windowLock = new ReentrantLock();
    // the logging window, under windowLock
    private boolean windowOpen;
    private long windowStart;
    private long windowCount;
    private String windowFirst;
    /** Called (outside the lock) when a window opens, to arrange a tick() after it; may be null. */
    private volatile Runnable windowOpened;

    /** An office that logs at INFO on this class's logger. */
    public DeadLetterOffice() {
        this(true);
    }

    /** @param logging whether dead letters are logged at INFO on this class's logger */
    public DeadLetterOffice(boolean logging) {
        this(logging, System::nanoTime, INFO);
    }

    /**
     * @param logging whether dead letters are logged at all
     * @param clock nanosecond time for the logging window
     * @param sink where the log lines go
     */
    public DeadLetterOffice(boolean logging, LongSupplier clock, Consumer<String> sink) {
        for (int i = 0; i < byReason.length; i++) {
            byReason[i] = new LongAdder();
        }
        this.logging = logging;
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
        this.sink = java.util.Objects.requireNonNull(sink, "sink");
    }

    private static void logInfo(String line) {
        LOG.info(line);
    }

    /** @param hook called when a logging window opens, to arrange a {@link #tick()} a second later */
    public void onWindowOpened(Runnable hook) {
        this.windowOpened = hook;
    }

    /** @return whether this office logs dead letters */
    public boolean isLogging() {
        return logging;
    }

    /**
     * Counts a dead letter, publishes it to subscribers, tells a waiting ask whose request it is,
     * and logs it (design block).
     *
     * @param message the undeliverable message
     * @param recipient who it was for
     * @param sender its reply destination, or null
     * @param reason why it is dead
     */
    public void publish(Object message, ActorRef<?> recipient, ActorRef<?> sender, DeadLetter.Reason reason) {
        if (message instanceof Internal) {
            internal.increment(); // the runtime's own notice to an actor that has gone: no one's message is lost
            return;
        }
        if (message instanceof Carrier carrier) {
            message = carrier.carried();
        }
        count.increment();
        byReason[reason.ordinal()].increment();
        if (!(message instanceof DeadLetter)) {
            // a dead letter that could not be told to a (stopped) subscriber is counted, not
            // published again: it would go straight back to that subscriber, forever
            publish(new DeadLetter(message, recipient, sender, reason));
        }
        if (sender instanceof ReplyWaiter waiter && reason != DeadLetter.Reason.NO_SENDER) {
            waiter.requestDead(recipient, reason);
        }
        if (logging && (sink != INFO || LOG.isInfoEnabled())) {
            logged(message, recipient, reason);
        }
    }

    private void logged(Object message, ActorRef<?> recipient, DeadLetter.Reason reason) {
        long now = clock.getAsLong();
        String single = null;
        String summary = null;
        windowLock.lock();
        try {
            if (windowOpen && now - windowStart >= WINDOW_NANOS) {
                summary = closeWindow();
            }
            if (summary != null) {
                // a burst goes on: this one opens the next window, counted, not logged alone
                openWindow(now);
                windowCount = 1;
                windowFirst = describe(message, recipient, reason);
            } else if (!windowOpen) {
                openWindow(now);
                single = "dead letter: " + describe(message, recipient, reason) + " [" + count.sum()
                        + " so far; the next second's are counted in one line]";
            } else {
                if (windowCount++ == 0) {
                    windowFirst = describe(message, recipient, reason);
                }
            }
        } finally {
            windowLock.unlock();
            if (summary != null) {
                sink.accept(summary);
            }
            if (single != null) {
                sink.accept(single);
            }
        }
        if (single != null || summary != null) {
            Runnable hook = windowOpened;
            if (hook != null) {
                hook.run();
            }
        }
    }

    private void openWindow(long now) {
        windowOpen = true;
        windowStart = now;
        windowCount = 0;
        windowFirst = null;
    }

    /** @return the window's summary line, or null if it counted nothing; closes it (under the lock) */
    private String closeWindow() {
        windowOpen = false;
        if (windowCount == 0) {
            return null;
        }
        String line = windowCount + (windowCount == 1 ? " dead letter" : " dead letters") + " in the last second, first: "
                + windowFirst + " [" + count.sum() + " so far]";
        windowCount = 0;
        windowFirst = null;
        return line;
    }

    /** Logs the open window's count if its second has passed (the system's timer calls this once a second). */
    public void tick() {
        if (!logging) {
            return;
        }
        long now = clock.getAsLong();
        String summary = null;
        windowLock.lock();
        try {
            if (windowOpen && now - windowStart >= WINDOW_NANOS) {
                summary = closeWindow();
            }
        } finally {
            windowLock.unlock();
        }
        if (summary != null) {
            sink.accept(summary);
        }
    }

    /** Logs the open window's count now, whatever its age (at close). */
    public void flush() {
        if (!logging) {
            return;
        }
        String summary = null;
        windowLock.lock();
        try {
            if (windowOpen) {
                summary = closeWindow();
            }
        } finally {
            windowLock.unlock();
        }
        if (summary != null) {
            sink.accept(summary);
        }
    }

    private static String describe(Object message, ActorRef<?> recipient, DeadLetter.Reason reason) {
        return (message == null ? "null" : message.getClass().getName()) + " to " + (recipient == null ? "no one" : recipient)
                + " (" + reason + ")";
    }

    @Override
    public void post(DeadLetter letter) {
        java.util.Objects.requireNonNull(letter, "letter");
        publish(letter.message(), letter.recipient(), letter.sender(), letter.reason());
    }

    @Override
    public long count() {
        return count.sum();
    }

    @Override
    public long count(DeadLetter.Reason reason) {
        return byReason[java.util.Objects.requireNonNull(reason, "reason").ordinal()].sum();
    }

    /**
     * How many {@link Internal} messages reached no one: dropped on purpose, not dead letters.
     *
     * @return that count since the system started
     */
    public long internalCount() {
        return internal.sum();
    }

    /**
     * A message the runtime itself sends between its own actors (a balancing routee's Ready to its
     * router) and that means nothing once its recipient has stopped: when it cannot be delivered
     * it is counted ({@link #internalCount()}) and dropped, not counted, published or logged as a
     * dead letter, because no user sent it and no user's message is lost with it.
     */
    public interface Internal {
    }

    /**
     * A wrapper a runtime layer puts around a user's message on its way to an actor (a balancing
     * router's hand-off): a dead letter shows the message inside, never the wrapper.
     */
    public interface Carrier {
        /** @return the user's message */
        Object carried();
    }
}
