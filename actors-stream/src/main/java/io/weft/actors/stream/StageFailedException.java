package io.weft.actors.stream;

/**
 * A stage threw from {@code consume}, {@code onStart} or {@code onStop}; the whole network was
 * cancelled. Completes {@link RunningPipeline#completion()} exceptionally.
 */
public final class StageFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String stage;

    /**
     * @param stage the failing stage's name
     * @param cause what it threw
     */
    public StageFailedException(String stage, Throwable cause) {
        super("stage '" + stage + "' failed: " + cause, cause);
        this.stage = stage;
    }

    /** @return the name of the stage that failed */
    public String stage() {
        return stage;
    }
}
