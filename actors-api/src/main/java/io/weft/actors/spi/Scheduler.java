package io.weft.actors.spi;

import java.util.Queue;

/**
 * Decides when and where actors run (Prokopec 2016, §3.1, Fig. 1–3).
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>{@link #initSchedule(Frame)} is called once when an actor is spawned on (or moved to) this
 *       scheduler, before any {@code schedule}; it must set {@link Frame#schedulerState(SchedulerState)}.
 *   <li>{@link #schedule(Frame)} is called each time the actor is activated: on spawn, when a
 *       message arrives for an idle actor, and when a batch ended with messages left. For each call
 *       the scheduler must call {@link Frame#execute()} exactly once, on a thread of its choice,
 *       eventually.
 *   <li><b>One schedule at a time.</b> The runtime calls {@code schedule} for a frame again only
 *       after the {@code execute()} of the previous call has started, and only once that
 *       {@code execute()} has finished its turn: no handler of the actor runs, and the frame's
 *       {@link SchedulerState} is not called, by that {@code execute()} any more. A scheduler
 *       therefore never holds two pending {@code execute()}s of one frame and needs no per-frame
 *       locking for them.
 *   <li><b>A returning execute may overlap the next one.</b> A turn ends either by deactivating
 *       the frame or, when messages are left, by calling {@code schedule} on the frame from inside
 *       {@code execute()}, as its last action on the frame. In both cases the next
 *       {@code execute()} may start on another thread while the previous call is still returning.
 *       The previous call touches nothing of the frame after that point, and everything its turn
 *       did happens-before the next turn; but a scheduler must not assume that two
 *       {@code execute()} calls of one frame never overlap in time (for example, a counter of
 *       running frames decremented after {@code execute()} returns may briefly count one frame
 *       twice).
 *   <li>{@code schedule} may be called from any thread, including inside another actor's handler and
 *       inside {@code execute} of the same frame; it must not block for long and must not run
 *       {@code execute} on the calling thread unless it documents that it does (piggyback).
 * </ol>
 *
 * <p>Implementations must be thread-safe. A scheduler may be shared by many actors and systems; the
 * system calls {@link #shutdown()} only on the schedulers it created itself.
 */
public interface Scheduler {

    /**
     * Prepares a frame: sets its scheduler state.
     *
     * @param frame the new or moved actor
     */
    void initSchedule(Frame frame);

    /**
     * Arranges for exactly one {@link Frame#execute()} of {@code frame}.
     *
     * @param frame an activated actor
     */
    void schedule(Frame frame);

    /**
     * Makes the pending queue of a new frame: the queue of its non-empty channels, in the order they
     * should be drained. Many threads offer, one thread (the running actor) polls.
     *
     * @return a new thread-safe queue; FIFO gives fairness across channels
     */
    Queue<EventQueue> newPendingQueue();

    /**
     * Whether each actor on this scheduler runs on a thread of its own, so that it may block in
     * {@code receive}. Such a scheduler's {@code schedule} must wake the frame's thread (for example
     * with {@link java.util.concurrent.locks.LockSupport#unpark(Thread)}) if it is waiting.
     *
     * @return true for thread-per-actor schedulers
     */
    default boolean ownsThread() {
        return false;
    }

    /**
     * A short name for logs and diagnostics.
     *
     * @return the name
     */
    default String name() {
        return getClass().getSimpleName();
    }

    /**
     * Releases the scheduler's threads. Called by a system on the schedulers it created, when it
     * closes, after every actor has stopped.
     */
    default void shutdown() {
    }
}
