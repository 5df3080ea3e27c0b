package io.weft.actors.spi;

import io.weft.actors.ActorRef;

/**
 * The runtime's record of one actor, as a {@link Scheduler} sees it (Prokopec 2016, §3.1).
 *
 * <p>A frame is <em>active</em> from the moment it is handed to {@link Scheduler#schedule(Frame)}
 * until the {@link #execute()} that call leads to finds nothing left to do. While active, exactly
 * one thread owns it.
 */
public interface Frame {

    /** @return the actor's ref */
    ActorRef<?> ref();

    /**
     * Runs one turn of the actor (Prokopec 2016, Fig. 2): its body if it has not started, then a batch of
     * messages as long as {@link SchedulerState#onBatchEvent} allows; then either deactivates the
     * frame or schedules it again. Must be called exactly once per {@code schedule}. Never throws:
     * failures of user code fail the actor, not the caller.
     *
     * <p>For an actor that owns its thread ({@link Scheduler#ownsThread()}) and blocks in
     * {@code receive}, this call returns only when the actor stops or leaves the scheduler.
     */
    void execute();

    /**
     * The frame as a reusable task whose {@code run} calls {@link #execute()}; no allocation per
     * schedule.
     *
     * @return the task
     */
    Runnable task();

    /** @return the state set by {@link Scheduler#initSchedule(Frame)} */
    SchedulerState schedulerState();

    /** @param state the per-actor scheduling state */
    void schedulerState(SchedulerState state);

    /** @return the scheduler the actor currently runs on */
    Scheduler scheduler();

    /**
     * Whether the frame is active: scheduled, running, or about to run.
     *
     * @return true while some thread owns it
     */
    boolean isActive();

    /** @return whether some channel of the actor holds messages */
    boolean hasPending();

    /** @return whether the actor has stopped for good */
    boolean isTerminated();

    /**
     * Turns on time-stamping of this frame's messages (Prokopec 2016, §4, fair scheduling): from now on
     * each message queued on any of its channels carries {@code clock.getAsLong()} taken when it was
     * queued. Call it from {@link Scheduler#initSchedule(Frame)}; {@code null} turns it off. Frames
     * that do not support it ignore the call.
     *
     * @param clock the stamp source (for example a global sequence), or null
     */
    default void timestampEvents(java.util.function.LongSupplier clock) {
    }

    /**
     * The stamp of the oldest queued message over all channels, for a frame with
     * {@linkplain #timestampEvents time-stamping} on. Call it only while no turn of the frame runs
     * (from the thread that owns the frame or the scheduler holding it).
     *
     * @return the oldest stamp; {@link Long#MAX_VALUE} if nothing is queued; {@link Long#MIN_VALUE}
     *     for a message queued without a stamp
     */
    default long oldestStamp() {
        return Long.MIN_VALUE;
    }
}
