package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * Runs each actor periodically (Prokopec 2016, §4, {@code TimerScheduler}): every period, if the actor is
 * active, one turn runs on the system's timer thread. {@code schedule} itself does nothing: an
 * activated frame waits for the next tick.
 */
public final class TimerScheduler implements Scheduler {

    /** The system's timer, created on first use. */
    private final Supplier<? extends ScheduledExecutorService> timer;
    private final long periodNanos;
    private final SchedulerState state;

    public TimerScheduler(Supplier<? extends ScheduledExecutorService> timer, Duration period, int batchSize) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("period: must be positive, was " + period);
        }
        this.timer = timer;
        this.periodNanos = period.toNanos();
        this.state = SchedulerState.batches(batchSize);
    }

    @Override
    public void initSchedule(Frame frame) {
        frame.schedulerState(state);
        ScheduledFuture<?>[] self = new ScheduledFuture<?>[1];
        self[0] = timer.get().scheduleAtFixedRate(() -> {
            if (frame.isTerminated() || frame.schedulerState() != state) {
                ScheduledFuture<?> f = self[0];
                if (f != null) {
                    f.cancel(false);
                }
                return;
            }
            if (frame.isActive()) {
                frame.execute();
            }
        }, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void schedule(Frame frame) {
        // The next tick runs it.
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new MpscLinkedAtomicUnpaddedQueue<>();
    }

    @Override
    public String name() {
        return "timer(" + Duration.ofNanos(periodNanos) + ")";
    }
}
