package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded-delivery-time fair scheduler of Prokopec 2016, §4, as a plain implementation of the SPI.
 * Messages of its frames are stamped on enqueue from one global sequence; the activated frame whose
 * oldest message is the oldest runs next; within a frame the channel with the oldest head is drained
 * first; and a turn continues only while its current channel holds the oldest message of the whole
 * scheduler (Theorem 3, with a budget as a safety net).
 */
public final class FairScheduler implements Scheduler {

    /* design
     * `tasks`: activated frames keyed by the stamp of their oldest message when scheduled (a frame's
     * oldest stamp does not change while it waits: new messages are always younger). A frame
     * scheduled with nothing queued (its start) takes the current clock value. Guarded by `lock`;
     * `oldestWaiting` mirrors the head's stamp for the running turns' onBatchEvent (a volatile read,
     * no lock on the message path).
     *
     * Stamps are a global sequence (one AtomicLong increment per send), so "older" is exact delivery
     * order, which makes the fairness bound a count of handling steps, not a time.
     *
     * With one thread (the default) the bound is small: a message x waits only behind messages
     * delivered before it, plus at most one message of each turn in progress. With more threads the
     * order is relaxed by the number of threads. The pending queue of a frame is a priority queue
     * ordered by head stamp; senders offer a channel when it becomes non-empty, when its head is
     * their own message, so its key is stable while it waits in the queue.
     */

    private final String name;
    private final int budget;
    private final AtomicLong clock = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition nonEmpty = lock.newCondition();
    private final PriorityQueue<Entry> tasks = new PriorityQueue<>(
            Comparator.comparingLong(Entry::stamp).thenComparingLong(Entry::order));
    private final Thread[] threads;
    private long order;
    private volatile long oldestWaiting = Long.MAX_VALUE;
    private volatile boolean shutdown;

    private record Entry(long stamp, long order, Frame frame) {
    }

    /**
     * @param name thread name prefix
     * @param threads how many threads run frames (1 gives the tightest bound)
     * @param budget upper bound on messages per turn, a safety net; at least 1
     */
    public FairScheduler(String name, int threads, int budget) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads: must be at least 1, was " + threads);
        }
        if (budget < 1) {
            throw new IllegalArgumentException("budget: must be at least 1, was " + budget);
        }
        this.name = name;
        this.budget = budget;
        this.threads = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::run, name + "-" + (i + 1));
            t.setDaemon(true);
            this.threads[i] = t;
            t.start();
        }
    }

    /** Per-frame state: go on while the current channel holds the scheduler's oldest message. */
    private final class FairState implements SchedulerState {
        private final Frame frame;

        FairState(Frame frame) {
            this.frame = frame;
        }

        @Override
        public void onBatchStart() {
        }

        @Override
        public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
            if (handledInBatch >= budget) {
                return false;
            }
            long mine = queue.headStamp();
            return mine != Long.MAX_VALUE && mine <= oldestWaiting && mine <= frame.oldestStamp();
        }
    }

    @Override
    public void initSchedule(Frame frame) {
        frame.timestampEvents(clock::incrementAndGet);
        frame.schedulerState(new FairState(frame));
    }

    @Override
    public void schedule(Frame frame) {
        long stamp = frame.oldestStamp();
        if (stamp == Long.MAX_VALUE) {
            stamp = clock.get();
        }
        lock.lock();
        try {
            if (shutdown) {
                throw new java.util.concurrent.RejectedExecutionException("scheduler " + name + " is shut down");
            }
            tasks.add(new Entry(stamp, order++, frame));
            oldestWaiting = tasks.peek().stamp();
            nonEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        for (;;) {
            Entry e;
            lock.lock();
            try {
                while (tasks.isEmpty()) {
                    if (shutdown) {
                        return;
                    }
                    nonEmpty.awaitUninterruptibly();
                }
                e = tasks.poll();
                Entry head = tasks.peek();
                oldestWaiting = head == null ? Long.MAX_VALUE : head.stamp();
            } finally {
                lock.unlock();
            }
            e.frame().execute();
        }
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new PriorityBlockingQueue<>(4, Comparator.comparingLong(EventQueue::headStamp));
    }

    @Override
    public String name() {
        return name;
    }

    /** @return whether {@code t} is one of this scheduler's threads */
    public boolean owns(Thread t) {
        for (Thread mine : threads) {
            if (mine == t) {
                return true;
            }
        }
        return false;
    }

    /** Stops the threads once the queue is empty and waits (at most 10 s) until each has ended. */
    @Override
    public void shutdown() {
        lock.lock();
        try {
            shutdown = true;
            nonEmpty.signalAll();
        } finally {
            lock.unlock();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Thread t : threads) {
            Joins.join(t, deadline, "thread of scheduler " + name); // not the caller's own
        }
    }
}
