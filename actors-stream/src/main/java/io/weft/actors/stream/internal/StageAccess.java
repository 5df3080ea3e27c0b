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
}
