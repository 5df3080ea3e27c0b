package io.weft.actors.stream.internal;

import io.weft.actors.stream.Stage;

/** Calls a stage's protected hooks through the accessor, held in a constant for the JIT. */
final class Hooks {

    private static final StageAccess ACCESS = StageAccess.get();

    private Hooks() {
    }

    static <T> void consume(Stage<T, ?> stage, T item) throws Exception {
        ACCESS.consume(stage, item);
    }

    static void start(Stage<?, ?> stage) throws Exception {
        ACCESS.start(stage);
    }

    static void stop(Stage<?, ?> stage) throws Exception {
        ACCESS.stop(stage);
    }
}
