package io.weft.actors.runtime.internal.cell;

import io.weft.actors.Timers;
import io.weft.actors.runtime.internal.schedule.TimerWheel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

/**
 * The {@link Timers} of one actor: its keyed timers, armed on the system's {@link TimerWheel}.
 */
final class CellTimers<M> implements Timers<M> {

    /* design
     * One Entry per timer: the wheel's node itself (TimerWheel.Timeout) with the key, the message,
     * this owner and the period, so a pending timer is one object plus its map entry. `byKey` is
     * owner-only state (plain HashMap): only the actor's own thread or turn reads and writes it
     * (checkOwner on every public method; stop and restart run on the owner too).
     *
     * Delivery: when a timer fires, the wheel's driver queues the Entry itself on the actor's main
     * mailbox (Cell.sendMain, no sender). The actor's turn (CellTurn.deliver) or receive
     * (CellThreadMode.receiveUntil) takes it and calls accept() before any handler sees it:
     * accept returns the user's message only if the Entry is still the current timer of its key
     * (`byKey.get(key) == entry`), and drops it otherwise. Replacing a key or cancelling it removes
     * the old Entry from `byKey` on the owner's thread, so a message of a replaced or cancelled
     * timer can be in the mailbox but is never handled: the check is made on the owner's thread,
     * after the owner's own replace or cancel. A single timer leaves `byKey` when its message is
     * accepted (isActive turns false there, as in Pekko). A message accepted and then not matched
     * by the current handler is stashed as the plain message (selective receive) and is handled
     * later like any other.
     *
     * Stop and restart: CellLifecycle calls cancelAllOnEnd (terminate, prepareRestart), which
     * cancels every Entry on the wheel and empties `byKey`; messages already queued are then
     * stale (dropped if taken; dead letters with the user's message if the mailbox is drained,
     * CellCore.deadLetter). A firing that finds its actor stopped sends nothing and does not
     * re-arm.
     */

    /** The longest delay taken as given; longer ones are capped (about 73 years). */
    private static final long MAX_DELAY_NANOS = 1L << 61;

    private final Cell<M> cell;
    private final HashMap<Object, Entry> byKey = new HashMap<>();

    CellTimers(Cell<M> cell) {
        this.cell = cell;
    }

    /** A timer: the wheel's node, the key, the message and the period. */
    static final class Entry extends TimerWheel.Timeout {
        final Object key;
        final Object message;
        final CellTimers<?> owner;
        /** 0: single; positive: fixed delay; negative: fixed rate (its negation). */
        final long period;

        Entry(Object key, Object message, CellTimers<?> owner, long period) {
            this.key = key;
            this.message = message;
            this.owner = owner;
            this.period = period;
        }

        @Override
        protected long expire(long now, long due) {
            Cell<?> c = owner.cell;
            if (c.isTerminated()) {
                return Long.MIN_VALUE;
            }
            c.sendMain(this, null);
            if (period == 0) {
                return Long.MIN_VALUE;
            }
            return period > 0 ? now + period : due - period;
        }

        @Override
        public String toString() {
            return "Timer[" + key + " -> " + message + "]";
        }
    }

    @Override
    public void startSingle(Object key, M message, Duration delay) {
        start("startSingle", key, message, "delay", delay, null, 0);
    }

    @Override
    public void startFixedDelay(Object key, M message, Duration delay) {
        start("startFixedDelay", key, message, "delay", delay, delay, 1);
    }

    @Override
    public void startFixedDelay(Object key, M message, Duration initialDelay, Duration delay) {
        start("startFixedDelay", key, message, "initialDelay", initialDelay, delay, 1);
    }

    @Override
    public void startFixedRate(Object key, M message, Duration interval) {
        start("startFixedRate", key, message, "interval", interval, interval, -1);
    }

    @Override
    public void startFixedRate(Object key, M message, Duration initialDelay, Duration interval) {
        start("startFixedRate", key, message, "initialDelay", initialDelay, interval, -1);
    }

    private void start(String what, Object key, Object message, String firstName, Duration first, Duration period, int sign) {
        cell.checkOwner("timers()." + what);
        if (key == null) {
            throw new NullPointerException("timers()." + what + " on " + cell.ref + ": key is null; give each timer a non-null key"
                    + " (a string, an enum constant or a record)");
        }
        if (message == null) {
            throw new NullPointerException("timers()." + what + " on " + cell.ref + ": message of timer " + key
                    + " is null; give the message the timer should send");
        }
        long firstNanos = positive(what, key, firstName, first);
        long periodNanos = period == null ? 0 : sign * positive(what, key, sign > 0 ? "delay" : "interval", period);
        if (cell.isTerminated()) {
            return; // an onStop hook of a stopped actor: its timers were cancelled, and it handles nothing more
        }
        Object checked = cell.system.checkMessage(message);
        Entry old = byKey.remove(key);
        TimerWheel wheel = cell.system.timerWheel();
        if (old != null) {
            wheel.cancel(old);
        }
        Entry e = new Entry(key, checked, this, periodNanos);
        try {
            wheel.schedule(e, wheel.now() + firstNanos);
        } catch (RejectedExecutionException closed) {
            throw new IllegalStateException("timers()." + what + " on " + cell.ref + ": actor system \"" + cell.system.name()
                    + "\" is closed; timer " + key + " was not started", closed);
        }
        byKey.put(key, e);
    }

    private long positive(String what, Object key, String name, Duration d) {
        if (d == null) {
            throw new NullPointerException("timers()." + what + " on " + cell.ref + ": " + name + " of timer " + key
                    + " is null; give a positive duration");
        }
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("timers()." + what + " on " + cell.ref + ": " + name + " of timer " + key
                    + " must be positive, was " + d + "; give at least Duration.ofMillis(1) (timers fire at 1 ms ticks)");
        }
        try {
            return Math.min(d.toNanos(), MAX_DELAY_NANOS);
        } catch (ArithmeticException overflow) {
            return MAX_DELAY_NANOS;
        }
    }

    @Override
    public void cancel(Object key) {
        cell.checkOwner("timers().cancel");
        Objects.requireNonNull(key, "key");
        Entry old = byKey.remove(key);
        if (old != null) {
            cell.system.timerWheel().cancel(old);
        }
    }

    @Override
    public boolean isActive(Object key) {
        cell.checkOwner("timers().isActive");
        Objects.requireNonNull(key, "key");
        return byKey.containsKey(key);
    }

    @Override
    public void cancelAll() {
        cell.checkOwner("timers().cancelAll");
        cancelAllOnEnd();
    }

    /** Stop or restart: cancels every timer; no owner check (the owner, or whoever ends the actor). */
    void cancelAllOnEnd() {
        if (byKey.isEmpty()) {
            return;
        }
        TimerWheel wheel = cell.system.timerWheel();
        for (Entry e : new ArrayList<>(byKey.values())) {
            wheel.cancel(e);
        }
        byKey.clear();
    }

    /**
     * The owner took {@code e} from its mailbox: the user's message if {@code e} is still the
     * current timer of its key, or null (replaced, cancelled, or of an earlier incarnation).
     */
    Object accept(Entry e) {
        if (byKey.get(e.key) != e) {
            return null;
        }
        if (e.period == 0) {
            byKey.remove(e.key);
        }
        return e.message;
    }

    @Override
    public String toString() {
        return "Timers[" + cell.ref + ", " + byKey.size() + " active]";
    }
}
