package io.weft.actors.testkit;

import java.time.Duration;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Time that moves only when a test says so. Timers scheduled on it run, in due-time order, on the
 * thread that calls {@link #advance(Duration)}; nothing ever runs on its own.
 *
 * <p>The {@link DeterministicScheduler} uses one for scheduled messages and ask timeouts, so a
 * test of a timeout never waits for real time.
 */
public final class ManualClock {

    private final ReentrantLock lock = new ReentrantLock();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private long nowNanos;
    private long sequence;

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
     * the same advance.
     *
     * @param by not negative
     * @return how many timers ran
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
                    return ran;
                }
                timers.poll();
                nowNanos = Math.max(nowNanos, next.dueNanos);
            } finally {
                lock.unlock();
            }
            if (!next.cancelled) {
                next.task.run();
                ran++;
            }
        }
    }
}
