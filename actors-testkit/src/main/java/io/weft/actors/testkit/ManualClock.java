package io.weft.actors.testkit;

import io.weft.actors.spi.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Time that moves only when a test says so. Timers scheduled on it run, in due-time order, on the
 * thread that calls {@link #advance(Duration)}; nothing ever runs on its own.
 *
 * <p>The {@link DeterministicScheduler} uses one for scheduled messages and ask timeouts, so a
 * test of a timeout never waits for real time.
 *
 * <p>It is also a manual {@link Ticker}: a system built with
 * {@code ActorSystem.builder().ticker(clock)} runs its actors' {@link io.weft.actors.Timers} on
 * this clock's time, and {@link #advance(Duration)} fires the timers that fall due, on the
 * advancing thread, before it returns (their messages are queued by then; the actors handle them
 * on their own schedulers).
 *
 * <pre>{@code
 * ManualClock clock = new ManualClock();
 * try (ActorSystem system = ActorSystem.builder().name("t").ticker(clock).build()) {
 *     ... an actor calls self.timers().startSingle("k", "ping", Duration.ofSeconds(5)) ...
 *     clock.advance(Duration.ofSeconds(5)); // "ping" is in its mailbox now
 * }
 * }</pre>
 */
public final class ManualClock implements Ticker {

    private final ReentrantLock lock = new ReentrantLock();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private long nowNanos;
    private long sequence;
    private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();

    /** Creates a clock at time zero. */
    public ManualClock() {
    }

    /** A scheduled task; cancel it to keep it from running. */
    public static final class Timer implements Comparable<Timer> {
        private final long dueNanos;
        private final long seq;
        private final Runnable task;
        private volatile boolean cancelled;

        private Timer(long dueNanos, long seq, Runnable task) {
            this.dueNanos = dueNanos;
            this.seq = seq;
            this.task = task;
        }

        /** Keeps the task from running if it has not run yet. */
        public void cancel() {
            cancelled = true;
        }

        /** @return the clock time at which it is due */
        public Duration due() {
            return Duration.ofNanos(dueNanos);
        }

        @Override
        public int compareTo(Timer o) {
            int c = Long.compare(dueNanos, o.dueNanos);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /**
     * @return the time elapsed on this clock since it was created, in nanoseconds (the
     *     {@link Ticker} view of {@link #now()})
     */
    @Override
    public long nanoTime() {
        lock.lock();
        try {
            return nowNanos;
        } finally {
            lock.unlock();
        }
    }

    /** @return true: this clock moves only in {@link #advance(Duration)} */
    @Override
    public boolean isManual() {
        return true;
    }

    /**
     * Registers {@code listener} to run on the advancing thread each time {@link #advance(Duration)}
     * moves the time: before each scheduled timer runs (at its due time) and at the end of the
     * advance. A system built with this clock as its ticker registers its timer wheel here.
     *
     * @param listener what to run, not null
     */
    @Override
    public void onAdvance(Runnable listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    private void notifyListeners() {
        for (Runnable l : listeners) {
            l.run();
        }
    }

    /** @return the time elapsed on this clock since it was created */
    public Duration now() {
        lock.lock();
        try {
            return Duration.ofNanos(nowNanos);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Schedules {@code task} to run when the clock has advanced by {@code delay}.
     *
     * @param delay not negative
     * @param task what to run, on the thread that advances the clock
     * @return the timer, to cancel it
     * @throws IllegalArgumentException naming {@code delay} if it is negative
     */
    public Timer schedule(Duration delay, Runnable task) {
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(task, "task");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay: must not be negative, was " + delay);
        }
        lock.lock();
        try {
            Timer t = new Timer(nowNanos + delay.toNanos(), sequence++, task);
            timers.add(t);
            return t;
        } finally {
            lock.unlock();
        }
    }

    /** @return how many timers are waiting (cancelled ones included until their time comes) */
    public int pendingTimers() {
        lock.lock();
        try {
            return timers.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves time forward and runs every timer that falls due, in due-time order (ties in the order
     * they were scheduled). A timer scheduled by a running timer runs too if it falls due within
     * the same advance. The {@linkplain #onAdvance(Runnable) listeners} (the timer wheels of systems
     * ticking on this clock) run before each such timer and at the end, so actor timers fire in
     * due-time order with these, at tick resolution.
     *
     * @param by not negative
     * @return how many timers scheduled on this clock ran (actor timers are not counted)
     * @throws IllegalArgumentException naming {@code by} if it is negative
     */
    public int advance(Duration by) {
        Objects.requireNonNull(by, "by");
        if (by.isNegative()) {
            throw new IllegalArgumentException("by: must not be negative, was " + by);
        }
        long target;
        lock.lock();
        try {
            target = nowNanos + by.toNanos();
        } finally {
            lock.unlock();
        }
        int ran = 0;
        for (;;) {
            Timer next;
            lock.lock();
            try {
                next = timers.peek();
                if (next == null || next.dueNanos > target) {
                    nowNanos = target;
                } else {
                    timers.poll();
                    nowNanos = Math.max(nowNanos, next.dueNanos);
                }
            } finally {
                lock.unlock();
            }
            notifyListeners(); // the timers of systems ticking on this clock, up to the new time
            if (next == null || next.dueNanos > target) {
                return ran;
            }
            if (!next.cancelled) {
                next.task.run();
                ran++;
            }
        }
    }
}
