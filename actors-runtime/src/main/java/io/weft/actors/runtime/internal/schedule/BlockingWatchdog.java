package io.weft.actors.runtime.internal.schedule;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a pool worker stuck in one react handler (Haller and Odersky 2009, §3.3), logs a warning naming the actor
 * and where it blocked, and adds a spare worker until the handler returns.
 */
final class BlockingWatchdog {

    /* design
     * Detection: each worker counts turns (odd = inside a frame's turn, release store by the worker).
     * Every tick (threshold / 4, at least 10 ms) the watchdog looks at each worker through its
     * TurnWatch (the class the reanimation thread uses for its 10 ms check); a worker seen inside
     * the same turn for `threshold` of System.nanoTime, counted from the first look at that turn,
     * has been inside one turn for at least `threshold`. The first look comes at most one tick
     * after the turn starts, so a blocked worker is detected at most threshold + tick (threshold
     * + a quarter) after its turn began, give or take this thread's late wake-ups. Turns are
     * bounded by the batch budget, so a long turn means a handler that blocks (sleep, lock, I/O)
     * or computes for very long.
     *
     * Compensation: ForkJoinPool.managedBlock only helps code that calls it, and arbitrary blocking
     * (a lock, a socket read, a latch) does not; so the watchdog raises the pool's parallelism by
     * one per stuck worker (setParallelism). That alone starts nobody: setParallelism only stores
     * the target, and the pool starts a worker only when a push lands in a queue that looked empty
     * (Pool's design block). So at every tick while any worker is compensated, if the pool has
     * fewer workers than its parallelism and none idle, the watchdog makes it start them, one
     * Pool.signalWorker each (which empties the submission queues into the watchdog's own before
     * its push), in the tick that raised the parallelism and in later ticks if one did not appear
     * (a thread that could not be started). A spare steals the stuck workers' queued frames (work
     * stealing) and runs everything else; one that finds nothing parks and is ready for the next
     * push. Each wave of blocked spares is one more detection, which starts spares of its own:
     * k waves take at most k * (threshold + tick). When a stuck turn ends, the parallelism is
     * lowered again and the extra worker retires after the pool's keep-alive. Mini-queue frames of
     * the stuck worker are rescued by the reanimation thread.
     *
     * All of this runs on the watchdog's thread, off the workers' path: a worker's only part is
     * the turn counter it writes anyway.
     *
     * Only the watchdog thread uses `watch` and `compensated`.
     */

    private static final Logger LOG = LoggerFactory.getLogger(BlockingWatchdog.class);

    private final ForkJoinScheduler scheduler;
    private final long thresholdNanos;
    private final long tickNanos;
    private final AtomicLong detected = new AtomicLong();
    private final TurnWatch watch = new TurnWatch();
    /** Workers stuck in the turn they were detected in, each with one spare worker added for it. */
    private final List<Worker> compensated = new ArrayList<>();
    private final Thread thread;
    private volatile boolean stopped;

    BlockingWatchdog(ForkJoinScheduler scheduler, Duration threshold) {
        this.scheduler = scheduler;
        this.thresholdNanos = threshold.toNanos();
        this.tickNanos = Math.max(10_000_000L, thresholdNanos / 4);
        this.thread = new Thread(this::run, scheduler.name() + "-watchdog");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** @return the watchdog's thread, which ends soon after {@link #stop()} */
    Thread thread() {
        return thread;
    }

    /**
     * Stops the watchdog and waits (10 s at most) for its thread to end, so that the pool is not
     * shut down while a tick takes submissions out to push them back.
     */
    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() != thread && thread.isAlive()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    long detected() {
        return detected.get();
    }

    private void run() {
        while (!stopped) {
            LockSupport.parkNanos(this, tickNanos);
            if (stopped) {
                break;
            }
            try {
                tick();
            } catch (RuntimeException e) {
                LOG.debug("blocking watchdog tick failed", e);
            }
        }
        ForkJoinPool pool = scheduler.pool();
        for (int i = compensated.size(); i > 0; i--) {
            pool.setParallelism(Math.max(1, pool.getParallelism() - 1));
        }
        compensated.clear();
    }

    private void tick() {
        ForkJoinScheduler.Pool pool = scheduler.pool();
        long now = System.nanoTime();
        watch.retain(scheduler.workers());
        // release compensation for turns that ended (or workers that are gone)
        for (int i = compensated.size() - 1; i >= 0; i--) {
            Worker w = compensated.get(i);
            if (!w.isAlive() || watch.insideOneTurn(w, now) == 0) {
                compensated.remove(i);
                pool.setParallelism(Math.max(1, pool.getParallelism() - 1));
            }
        }
        for (Worker w : scheduler.workers()) {
            if (compensated.contains(w) || watch.insideOneTurn(w, now) < thresholdNanos) {
                continue;
            }
            PoolFrame cell = w.running;
            compensated.add(w);
            detected.incrementAndGet();
            pool.setParallelism(pool.getParallelism() + 1);
            warn(w, cell);
        }
        if (!compensated.isEmpty()) {
            startSpares(pool);
        }
    }

    /**
     * Makes {@code pool} start workers, one {@link ForkJoinScheduler.Pool#signalWorker} each,
     * until it has as many as its parallelism; stops early if a worker is idle (the next push
     * wakes it) or if one did not start (tried again next tick).
     */
    private void startSpares(ForkJoinScheduler.Pool pool) {
        for (int missing = pool.getParallelism() - pool.getPoolSize(); missing > 0; missing--) {
            int size = pool.getPoolSize();
            if (size >= pool.getParallelism() || pool.getActiveThreadCount() < size || pool.isShutdown()) {
                return;
            }
            pool.signalWorker();
            if (pool.getPoolSize() <= size) {
                return;
            }
        }
    }

    private void warn(Worker w, PoolFrame cell) {
        StackTraceElement[] stack = w.getStackTrace();
        StringBuilder where = new StringBuilder();
        int shown = 0;
        boolean userFrameShown = false;
        for (StackTraceElement e : stack) {
            String cls = e.getClassName();
            boolean runtime = cls.startsWith("io.weft.actors.");
            boolean jdk = cls.startsWith("java.") || cls.startsWith("jdk.") || cls.startsWith("sun.");
            if (shown < 2 || (!userFrameShown && !runtime && !jdk)) {
                where.append("\n\tat ").append(e);
                shown++;
                if (!runtime && !jdk) {
                    userFrameShown = true;
                }
            }
            if (shown >= 2 && userFrameShown) {
                break;
            }
        }
        LOG.warn("actor {} has been blocked (or busy) in one react handler for more than {} ms on pool worker {};"
                        + " added a spare worker until it returns. Blocking in react ties up a pool worker:"
                        + " make it a thread-based actor (spawnThread, or switchToThread before blocking). Blocked at:{}",
                cell, thresholdNanos / 1_000_000, w.getName(), where);
    }
}
