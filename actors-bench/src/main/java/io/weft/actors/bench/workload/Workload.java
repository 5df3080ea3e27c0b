package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Impl;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One benchmark: runs on a {@link Kit}, computes a result, and checks it, so a fast wrong answer
 * fails instead of winning.
 */
public abstract class Workload {

    /** The message every benchmark actor understands as "stop now". */
    public static final Object STOP = new Object() {
        @Override
        public String toString() {
            return "STOP";
        }
    };

    /** The message that starts a workload's driver actor. */
    public static final Object START = new Object() {
        @Override
        public String toString() {
            return "START";
        }
    };

    private final String name;

    /**
     * @param name the workload's command-line name
     */
    protected Workload(String name) {
        this.name = name;
    }

    /**
     * The command-line name.
     *
     * @return e.g. {@code pingpong}
     */
    public final String name() {
        return name;
    }

    /**
     * What runs at this scale, for the progress line and the docs.
     *
     * @param scale the scale
     * @return e.g. {@code "40,000 round trips"}
     */
    public abstract String describe(Scale scale);

    /**
     * How many actors are alive at once at this scale, to skip thread-per-actor baselines that
     * cannot have that many.
     *
     * @param scale the scale
     * @return live actors
     */
    public abstract int liveActors(Scale scale);

    /**
     * Whether this workload has a version for an implementation.
     *
     * @param impl the implementation
     * @return true by default for every actor implementation, false for {@link Impl#FJ}
     */
    public boolean supports(Impl impl) {
        return impl != Impl.FJ;
    }

    /**
     * Whether {@code compare} runs this workload at a scale (some are too long for
     * {@code --quick}).
     *
     * @param scale the scale
     * @return true by default
     */
    public boolean runsAt(Scale scale) {
        return true;
    }

    /**
     * Runs once and checks the result.
     *
     * @param kit the implementation
     * @param scale the size
     * @throws ValidationException if the result is wrong
     * @throws Exception if the run failed or timed out
     */
    public abstract void run(Kit kit, Scale scale) throws Exception;

    /**
     * Waits for a run's result; runs that take longer than ten minutes are failures.
     *
     * @param <T> the result type
     * @param result the future the workload completes
     * @return the result
     * @throws Exception on failure or timeout
     */
    protected static <T> T await(CompletableFuture<T> result) throws Exception {
        return result.get(10, TimeUnit.MINUTES);
    }

    /**
     * Throws if {@code actual} differs from {@code expected}.
     *
     * @param what what is checked
     * @param expected the right value
     * @param actual the computed value
     */
    protected final void check(String what, long expected, long actual) {
        if (expected != actual) {
            throw new ValidationException(name + ": " + what + " was " + actual + ", expected " + expected);
        }
    }

    /**
     * Sends {@link #STOP} to every actor.
     *
     * @param refs the actors
     */
    protected static void stopAll(Ref... refs) {
        for (Ref r : refs) {
            r.tell(STOP);
        }
    }

    /**
     * A small floating-point computation standing in for work (Savina's
     * {@code performComputation}).
     *
     * @param theta the input
     * @return a value that depends on the input
     */
    protected static double compute(double theta) {
        double s = Math.sin(theta);
        return s * s + Math.sqrt(theta);
    }

    /** A wrong result. */
    public static final class ValidationException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /**
         * @param message what was wrong
         */
        public ValidationException(String message) {
            super(message);
        }
    }
}
