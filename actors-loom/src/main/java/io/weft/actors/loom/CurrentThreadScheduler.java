package io.weft.actors.loom;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Queue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The scheduler of an adopted thread: that thread is always the actor's thread, so scheduling it
 * only means waking it if it waits in {@code receive}. Once the actor is finished (released, its
 * thread ended, or the system closed), a late activation runs the frame on the sender's thread,
 * which drains the late mail to dead letters.
 */
final class CurrentThreadScheduler implements Scheduler, SchedulerState {

    private volatile Thread thread;

    @Override
    public void initSchedule(Frame frame) {
        thread = Thread.currentThread();
        frame.schedulerState(this);
    }

    @Override
    public void schedule(Frame frame) {
        if (frame.isTerminated()) {
            // The actor was released (or its thread ended): a late sender activated it, so run the
            // turn here; it only moves the late mail to dead letters and deactivates the frame.
            frame.execute();
        } else {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new ConcurrentLinkedQueue<>();
    }

    @Override
    public boolean ownsThread() {
        return true;
    }

    @Override
    public void onBatchStart() {
    }

    @Override
    public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
        return true;
    }
}
