package io.weft.actors.jcstress;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A scheduler driven by the test: {@code schedule} only records the frame, and the test's threads
 * run it with {@link #runOnce()}. It checks the SPI promise that a frame is never scheduled again
 * before its execute has been taken ({@link #doubleSchedules()}). With {@code ownsThread} it acts
 * as a thread-per-actor scheduler whose thread is whichever test thread called {@link #runOnce()}.
 */
public final class ManualScheduler implements Scheduler, SchedulerState {

    private final boolean ownsThread;
    private final AtomicReference<Frame> slot = new AtomicReference<>();
    private final AtomicInteger doubleSchedules = new AtomicInteger();
    private volatile Thread runner;

    /** @param ownsThread whether actors on it may block in receive */
    public ManualScheduler(boolean ownsThread) {
        this.ownsThread = ownsThread;
    }

    @Override
    public void initSchedule(Frame frame) {
        frame.schedulerState(this);
    }

    @Override
    public void schedule(Frame frame) {
        Thread t = runner;
        if (ownsThread && t != null) {
            LockSupport.unpark(t); // the actor's thread waits in receive
            return;
        }
        if (!slot.compareAndSet(null, frame)) {
            doubleSchedules.incrementAndGet();
        }
    }

    /** @return whether a scheduled execute was run */
    public boolean runOnce() {
        Frame f = slot.getAndSet(null);
        if (f == null) {
            return false;
        }
        if (ownsThread) {
            runner = Thread.currentThread();
        }
        f.execute();
        return true;
    }

    /** Runs scheduled executes until none is left. */
    public void runAll() {
        while (runOnce()) {
            // keep going
        }
    }

    /** @return whether an execute is scheduled and not yet taken */
    public boolean hasScheduled() {
        return slot.get() != null;
    }

    /** @return how often schedule was called while an earlier execute was still untaken */
    public int doubleSchedules() {
        return doubleSchedules.get();
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new ConcurrentLinkedQueue<>();
    }

    @Override
    public boolean ownsThread() {
        return ownsThread;
    }

    @Override
    public void onBatchStart() {
    }

    @Override
    public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
        return true;
    }
}
