package io.weft.actors.runtime.examples;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Comparator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A user policy (docs/scheduling.md): priority between actors. Actors spawned with
 * {@code at(p)} share a pool of threads that always runs the activated actor with the highest
 * priority first (FIFO among equal priorities). Turns are short (a small budget), so a
 * high-priority actor that becomes active waits for at most one short turn per thread.
 */
public final class PriorityScheduler implements AutoCloseable {

    private record Task(int priority, long order, Frame frame) {
    }

    private static final Task STOP = new Task(Integer.MAX_VALUE, -1, null);

    private final PriorityBlockingQueue<Task> ready = new PriorityBlockingQueue<>(64,
            Comparator.comparingInt((Task t) -> -t.priority()).thenComparingLong(Task::order));
    private final AtomicLong order = new AtomicLong();
    private final Thread[] threads;
    private final int budget;

    /**
     * @param threads how many threads run actors
     * @param budget messages per turn
     */
    public PriorityScheduler(int threads, int budget) {
        this.budget = budget;
        this.threads = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            this.threads[i] = Thread.ofPlatform().daemon(true).name("priority-" + i).start(this::run);
        }
    }

    private void run() {
        for (;;) {
            Task t;
            try {
                t = ready.take();
            } catch (InterruptedException e) {
                return;
            }
            if (t == STOP) {
                return;
            }
            t.frame().execute(); // exactly once per schedule
        }
    }

    /**
     * @param priority higher runs first
     * @return the scheduler to spawn actors of that priority with
     */
    public Scheduler at(int priority) {
        return new Scheduler() {
            @Override
            public void initSchedule(Frame frame) {
                frame.schedulerState(SchedulerState.batches(budget));
            }

            @Override
            public void schedule(Frame frame) {
                ready.add(new Task(priority, order.getAndIncrement(), frame));
            }

            @Override
            public Queue<EventQueue> newPendingQueue() {
                return new ConcurrentLinkedQueue<>();
            }

            @Override
            public String name() {
                return "priority(" + priority + ")";
            }
        };
    }

    @Override
    public void close() {
        for (int i = 0; i < threads.length; i++) {
            ready.add(STOP);
        }
    }
}
