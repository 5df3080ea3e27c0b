package io.weft.actors.runtime.internal;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Queue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;

/**
 * The default scheduler of event-based actors (seed 004 §4, {@code ExecutorScheduler}): a FIFO
 * ({@code asyncMode}) {@link ForkJoinPool}. A frame scheduled from one of the pool's own workers
 * is forked onto that worker's local queue (the actor-to-actor path); others are submitted to the
 * shared queues. Cells are forked as themselves, so an activation allocates nothing.
 */
public final class ForkJoinScheduler implements Scheduler {

    private final ForkJoinPool pool;
    private final SchedulerState state;
    private final String name;

    /**
     * @param name the thread name prefix
     * @param parallelism the pool's parallelism
     * @param batchSize messages per actor turn
     * @param metrics the system's counters, which workers bump without contention
     */
    ForkJoinScheduler(String name, int parallelism, int batchSize, Metrics metrics) {
        this.name = name;
        this.state = SchedulerState.batches(batchSize);
        AtomicInteger index = new AtomicInteger();
        this.pool = new ForkJoinPool(parallelism, p -> new Worker(p, name + "-" + index.incrementAndGet(), metrics),
                null, true);
    }

    /** A pool worker; remembers the cell it is running for {@link WeftSystem#current()}. */
    static final class Worker extends ForkJoinWorkerThread {
        Cell<?> current;
        final Metrics metrics;
        final Metrics.WorkerCounters counters;

        Worker(ForkJoinPool pool, String name, Metrics metrics) {
            super(null, pool, true);
            this.metrics = metrics;
            this.counters = metrics.newWorkerCounters();
            setName(name);
            setDaemon(true);
        }
    }

    ForkJoinPool pool() {
        return pool;
    }

    @Override
    public void initSchedule(Frame frame) {
        frame.schedulerState(state);
    }

    @Override
    public void schedule(Frame frame) {
        if (frame instanceof ForkJoinTask<?> task) { // cells and stream stages: no allocation
            if (Thread.currentThread() instanceof Worker w && w.getPool() == pool) {
                task.fork();
            } else {
                pool.execute(task);
            }
        } else {
            pool.execute(frame.task());
        }
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new MpscLinkedAtomicUnpaddedQueue<>();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void shutdown() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                pool.shutdownNow();
                pool.awaitTermination(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
