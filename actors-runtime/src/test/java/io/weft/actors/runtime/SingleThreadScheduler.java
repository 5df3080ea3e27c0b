package io.weft.actors.runtime;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A user-defined scheduler written against the public SPI only: every actor on it runs on one
 * executor thread, in turns of at most {@code budget} messages, and each actor's state counts its
 * turns and messages.
 */
final class SingleThreadScheduler implements Scheduler {

    final String threadName;
    final int budget;
    final ExecutorService executor;
    final AtomicInteger initCalls = new AtomicInteger();
    final AtomicInteger scheduleCalls = new AtomicInteger();
    final AtomicInteger pendingQueues = new AtomicInteger();
    /** Set if a frame was ever given to us that is not ours, or run off our thread. */
    final AtomicInteger protocolErrors = new AtomicInteger();
    final List<CountingState> states = new CopyOnWriteArrayList<>();

    SingleThreadScheduler(String threadName, int budget) {
        this.threadName = threadName;
        this.budget = budget;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Per-actor state: counts turns and handled messages; written only by our thread. */
    final class CountingState implements SchedulerState {
        final Frame frame;
        volatile int batches;
        volatile int events;
        volatile int maxInBatch;

        CountingState(Frame frame) {
            this.frame = frame;
        }

        @Override
        public void onBatchStart() {
            if (!Thread.currentThread().getName().equals(threadName) || frame.scheduler() != SingleThreadScheduler.this) {
                protocolErrors.incrementAndGet();
            }
            batches++;
        }

        @Override
        public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
            events++;
            maxInBatch = Math.max(maxInBatch, handledInBatch);
            return handledInBatch < budget;
        }
    }

    @Override
    public void initSchedule(Frame frame) {
        initCalls.incrementAndGet();
        CountingState state = new CountingState(frame);
        states.add(state);
        frame.schedulerState(state);
    }

    @Override
    public void schedule(Frame frame) {
        scheduleCalls.incrementAndGet();
        if (!(frame.schedulerState() instanceof CountingState)) {
            protocolErrors.incrementAndGet();
        }
        executor.execute(frame.task());
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        pendingQueues.incrementAndGet();
        return new ConcurrentLinkedQueue<>();
    }

    @Override
    public String name() {
        return "single-thread(" + threadName + ")";
    }

    @Override
    public void shutdown() {
        executor.shutdown();
        try {
            executor.awaitTermination(Probes.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
