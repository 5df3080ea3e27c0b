package io.weft.actors.runtime.internal;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;

/**
 * Gives every actor a thread of its own (seed 004 §4, {@code ThreadScheduler}): a dedicated platform
 * thread, or a virtual thread. Event-based actors on it drain their channels until empty and then
 * park; thread-based actors block in {@code receive} on it.
 */
public class ThreadPerActorScheduler implements Scheduler {

    /* design
     * State per frame: the thread (created at initSchedule, started by the first schedule).
     * The thread's loop: execute(); then, while the frame is not active, park. A sender activates
     * the frame (active 0 -> 1) and calls schedule, which unparks the thread, so a wake-up is never
     * lost: park returns at once if the unpark came first. The loop ends when the frame stops or
     * moves to another scheduler (its state is no longer ours).
     */

    private final Thread.Builder threads;
    private final String name;
    private final Set<Thread> live = ConcurrentHashMap.newKeySet();

    /**
     * @param name the scheduler's name
     * @param threads how to make each actor's thread
     */
    public ThreadPerActorScheduler(String name, Thread.Builder threads) {
        this.name = name;
        this.threads = threads;
    }

    private final class State implements SchedulerState {
        final Thread thread;
        final AtomicBoolean started = new AtomicBoolean();

        State(Frame frame) {
            this.thread = threads.unstarted(() -> loop(frame, this));
        }

        @Override
        public void onBatchStart() {
        }

        @Override
        public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
            return true;
        }
    }

    private void loop(Frame frame, State state) {
        try {
            do {
                frame.execute();
                while (!frame.isActive() && !frame.isTerminated() && frame.schedulerState() == state) {
                    LockSupport.park(this);
                }
            } while (!frame.isTerminated() && frame.schedulerState() == state);
        } finally {
            live.remove(Thread.currentThread());
        }
    }

    @Override
    public void initSchedule(Frame frame) {
        frame.schedulerState(new State(frame));
    }

    @Override
    public void schedule(Frame frame) {
        State s = (State) frame.schedulerState();
        if (s.started.compareAndSet(false, true)) {
            live.add(s.thread);
            s.thread.start();
        } else {
            LockSupport.unpark(s.thread);
        }
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new MpscLinkedAtomicUnpaddedQueue<>();
    }

    @Override
    public boolean ownsThread() {
        return true;
    }

    @Override
    public String name() {
        return name;
    }

    /** @return how many actor threads of this scheduler are alive */
    public int liveThreads() {
        return live.size();
    }

    @Override
    public void shutdown() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Thread t : live) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
