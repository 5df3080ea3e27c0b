package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Queue;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;

/**
 * Runs an actor on the thread that spawns it (Prokopec 2016, §4, {@code PiggybackScheduler}): the first
 * {@code schedule}, from {@code spawn}, runs the actor's loop on the calling thread, which returns
 * from {@code spawn} only when the actor stops. Later activations wake that thread.
 */
public final class PiggybackScheduler implements Scheduler {

    private static final class State implements SchedulerState {
        volatile Thread thread;

        @Override
        public void onBatchStart() {
        }

        @Override
        public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
            return true;
        }
    }

    @Override
    public void initSchedule(Frame frame) {
        frame.schedulerState(new State());
    }

    @Override
    public void schedule(Frame frame) {
        State s = (State) frame.schedulerState();
        Thread t = s.thread;
        if (t != null) {
            LockSupport.unpark(t);
            return;
        }
        s.thread = Thread.currentThread();
        do {
            frame.execute();
            while (!frame.isActive() && !frame.isTerminated() && frame.schedulerState() == s) {
                LockSupport.park(this);
            }
        } while (!frame.isTerminated() && frame.schedulerState() == s);
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new MpscLinkedAtomicUnpaddedQueue<>();
    }

    @Override
    public String name() {
        return "piggyback";
    }
}
