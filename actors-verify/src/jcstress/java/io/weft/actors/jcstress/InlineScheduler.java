package io.weft.actors.jcstress;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Runs each activation at once on the thread that activated the actor, so that the test's racing
 * threads are the threads that run the handlers. An activation requested from inside a running
 * execute on the same thread (the end of a turn rescheduling itself) is run by a loop after that
 * execute returns, not by recursion, so the stack stays flat.
 */
public final class InlineScheduler implements Scheduler, SchedulerState {

    @Override
    public void initSchedule(Frame frame) {
        frame.schedulerState(this);
    }

    private final ThreadLocal<int[]> state = ThreadLocal.withInitial(() -> new int[2]); // {inside, again}

    @Override
    public void schedule(Frame frame) {
        int[] s = state.get();
        if (s[0] != 0) {
            s[1] = 1;
            return;
        }
        s[0] = 1;
        try {
            do {
                s[1] = 0;
                frame.execute();
            } while (s[1] != 0);
        } finally {
            s[0] = 0;
        }
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new ConcurrentLinkedQueue<>();
    }

    @Override
    public void onBatchStart() {
    }

    @Override
    public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
        return true;
    }
}
