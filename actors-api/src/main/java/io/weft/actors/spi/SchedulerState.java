package io.weft.actors.spi;

/**
 * Per-actor scheduling state (Prokopec 2016, §4): decides how long a turn lasts. Called only by the thread
 * that runs the actor, so implementations need no synchronization.
 */
public interface SchedulerState {

    /** Called when a turn (batch) starts. */
    void onBatchStart();

    /**
     * Called after each handled message of a turn.
     *
     * @param queue the channel queue the message came from
     * @param handledInBatch how many messages this turn has handled so far, including this one
     * @return true to go on with the turn, false to end it and yield the thread
     */
    boolean onBatchEvent(EventQueue queue, int handledInBatch);

    /**
     * The default policy: turns of at most {@code budget} messages.
     *
     * @param budget messages per turn, at least 1
     * @return a stateless state, shareable between actors
     */
    static SchedulerState batches(int budget) {
        if (budget < 1) {
            throw new IllegalArgumentException("budget: must be at least 1, was " + budget);
        }
        return new SchedulerState() {
            @Override
            public void onBatchStart() {
            }

            @Override
            public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
                return handledInBatch < budget;
            }

            @Override
            public String toString() {
                return "batches(" + budget + ")";
            }
        };
    }

    /**
     * Turns that drain every channel until empty (the {@code DedicatedState} of Prokopec 2016).
     *
     * @return a stateless state
     */
    static SchedulerState unbounded() {
        return batches(Integer.MAX_VALUE);
    }
}
