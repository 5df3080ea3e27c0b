package io.weft.actors.stream.internal;

import io.weft.actors.stream.Stage;

/**
 * The runtime's access to a {@link Stage}'s hidden wiring, installed by {@code Stage}'s static
 * initializer (so the API class keeps no public setters).
 */
public abstract class StageAccess {

    private static volatile StageAccess instance;

    /** For the subclass in {@link Stage}. */
    protected StageAccess() {
    }

    /**
     * Called once, by {@link Stage}'s static initializer.
     *
     * @param access the accessor
     */
    public static void install(StageAccess access) {
        instance = access;
    }

    static StageAccess get() {
        return instance;
    }

    /**
     * Connects a stage to its frame and output.
     *
     * @param stage the stage
     * @param frame the frame running it
     * @param outlet where its emits go
     * @param <T> the stage's output type
     */
    protected abstract <T> void bind(Stage<?, T> stage, StageFrame<?, T> frame, Outlet<T> outlet);

    /**
     * @param stage the stage
     * @param item the input
     * @param <T> the input type
     * @throws Exception whatever consume throws
     */
    protected abstract <T> void consume(Stage<T, ?> stage, T item) throws Exception;

    /**
     * @param stage the stage
     * @throws Exception whatever onStart throws
     */
    protected abstract void start(Stage<?, ?> stage) throws Exception;

    /**
     * @param stage the stage
     * @throws Exception whatever onStop throws
     */
    protected abstract void stop(Stage<?, ?> stage) throws Exception;

    /**
     * @param stage the stage
     * @return its name
     */
    protected abstract String name(Stage<?, ?> stage);

    /**
     * @param stage the stage
     * @return its input capacity
     */
    protected abstract int capacity(Stage<?, ?> stage);

    /**
     * @param stage the stage
     * @return whether it runs on a thread of its own
     */
    protected abstract boolean onThread(Stage<?, ?> stage);

    /**
     * @param stage the stage
     * @return the per-item loop of its turns (one per stage class)
     */
    protected abstract Loop loop(Stage<?, ?> stage);

    /**
     * The per-item loop of a stage's turn, written in the stage's package so that it calls
     * {@code consume} directly; one copy per stage class (its call site sees one class).
     */
    public abstract static class Loop {
        /** Items that count as one event of the scheduler's batch budget. */
        protected static final int ITEMS_PER_EVENT = StageFrame.ITEMS_PER_EVENT;
        /** The loop ended on the network's stop flag. */
        protected static final int STOPPED = 0;
        /** The loop ended with the input empty. */
        protected static final int EMPTY = 1;
        /** The loop ended with the budget used. */
        protected static final int BUDGET_USED = 2;
        /** The loop ended with a throwable from consume (handed to the frame). */
        protected static final int FAILED = 3;

        /** For the loop's template. */
        protected Loop() {
        }

        /**
         * Polls and consumes until the input is empty, the network stops, consume throws or
         * the budget is used.
         *
         * @param frame the frame, owned by the calling thread
         * @param stage its stage
         * @return the items consumed, shifted left by 2, or'ed with why the loop ended
         */
        protected abstract long drain(StageFrame<?, ?> frame, Stage<?, ?> stage);
    }
}
