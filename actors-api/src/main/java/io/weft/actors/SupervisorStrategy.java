package io.weft.actors;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What happens to an actor when its body or a handler throws: restart, resume, stop or escalate,
 * chosen by the exception's type (Erlang/OTP supervisors, Akka supervision). Given per actor in
 * {@link Props#withSupervisor(SupervisorStrategy)}, typically by the parent that spawns it with
 * {@link ActorContext#spawnChild(Props, java.util.function.Supplier)}.
 *
 * <pre>{@code
 * SupervisorStrategy strategy = SupervisorStrategy.builder()
 *     .on(IllegalStateException.class, Directive.RESUME)
 *     .on(IOException.class, Directive.RESTART)
 *     .otherwise(Directive.ESCALATE)
 *     .backoff(Duration.ofMillis(10), Duration.ofSeconds(1), 2.0)
 *     .maxRestarts(5, Duration.ofMinutes(1))
 *     .build();
 * }</pre>
 *
 * <p><b>Restart</b> builds a fresh behavior from the actor's factory and runs it from the start,
 * after a delay growing exponentially from {@code minBackoff} to {@code maxBackoff}; the mailbox,
 * including messages set aside by selective receive, is kept, so only the message whose handler
 * failed is lost. A thread-based actor's body restarts on a new thread. The actor's children are
 * stopped first, so the new behavior starts without any. More than
 * {@code maxRestarts} restarts within {@code window} stop the actor instead, with the failure as
 * its cause. <b>Resume</b> drops the failing message and keeps the state and the current handler;
 * a thread-based actor, whose stack is gone, and an actor that failed outside a handler, restart
 * instead. <b>Stop</b> stops it with the failure as cause. <b>Escalate</b> stops it and fails its
 * parent with the same exception (the parent's own strategy then decides); without a parent it is
 * a stop. Immutable and thread-safe.
 */
public final class SupervisorStrategy {

    /** What to do with a failed actor. */
    public enum Directive {
        /** Start the actor again with a fresh behavior, keeping its mailbox. */
        RESTART,
        /** Drop the failing message and go on with the same state and handler. */
        RESUME,
        /** Stop the actor; watchers see the failure as the cause. */
        STOP,
        /** Stop the actor and fail its parent with the same exception. */
        ESCALATE
    }

    private static final SupervisorStrategy STOP = builder().build();

    private final List<Class<? extends Throwable>> types;
    private final List<Directive> directives;
    private final Directive otherwise;
    private final Duration minBackoff;
    private final Duration maxBackoff;
    private final double factor;
    private final int maxRestarts;
    private final Duration window;

    private SupervisorStrategy(Builder b) {
        this.types = List.copyOf(b.types);
        this.directives = List.copyOf(b.directives);
        this.otherwise = b.otherwise;
        this.minBackoff = b.minBackoff;
        this.maxBackoff = b.maxBackoff;
        this.factor = b.factor;
        this.maxRestarts = b.maxRestarts;
        this.window = b.window;
    }

    /** @return a builder whose defaults stop on every failure */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the strategy of an actor given none: stop on every failure */
    public static SupervisorStrategy stopping() {
        return STOP;
    }

    /**
     * @return a strategy that restarts on every exception (errors stop), with the default backoff
     *     (10 ms doubling to 1 s) and at most 10 restarts a minute
     */
    public static SupervisorStrategy restarting() {
        return builder().on(Exception.class, Directive.RESTART).build();
    }

    /**
     * The directive for a failure: the first {@code on} case whose type the failure is an instance
     * of, else the {@code otherwise} directive.
     *
     * @param failure what the actor threw
     * @return the directive
     */
    public Directive decide(Throwable failure) {
        for (int i = 0; i < types.size(); i++) {
            if (types.get(i).isInstance(failure)) {
                return directives.get(i);
            }
        }
        return otherwise;
    }

    /** @return whether some case restarts, so the actor needs a behavior factory */
    public boolean mayRestart() {
        return otherwise == Directive.RESTART || directives.contains(Directive.RESTART) || directives.contains(Directive.RESUME)
                || otherwise == Directive.RESUME;
    }

    /**
     * The delay before the {@code n}-th restart within the window: {@code minBackoff * factor^(n-1)},
     * at most {@code maxBackoff}.
     *
     * @param n the restart's number, from 1
     * @return the delay
     */
    public Duration backoff(int n) {
        double nanos = minBackoff.toNanos() * Math.pow(factor, Math.max(0, n - 1));
        return nanos >= maxBackoff.toNanos() ? maxBackoff : Duration.ofNanos((long) nanos);
    }

    /** @return how many restarts are allowed within {@link #window()} */
    public int maxRestarts() {
        return maxRestarts;
    }

    /** @return the window in which restarts are counted */
    public Duration window() {
        return window;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("SupervisorStrategy[");
        for (int i = 0; i < types.size(); i++) {
            s.append(types.get(i).getSimpleName()).append("->").append(directives.get(i)).append(", ");
        }
        return s.append("otherwise->").append(otherwise).append(", backoff ").append(minBackoff).append("..").append(maxBackoff)
                .append(" x").append(factor).append(", max ").append(maxRestarts).append(" in ").append(window).append(']').toString();
    }

    /** Builds a {@link SupervisorStrategy}; each method validates its arguments at once. */
    public static final class Builder {
        private final List<Class<? extends Throwable>> types = new ArrayList<>();
        private final List<Directive> directives = new ArrayList<>();
        private Directive otherwise = Directive.STOP;
        private Duration minBackoff = Duration.ofMillis(10);
        private Duration maxBackoff = Duration.ofSeconds(1);
        private double factor = 2.0;
        private int maxRestarts = 10;
        private Duration window = Duration.ofMinutes(1);

        Builder() {
        }

        /**
         * Adds a case; cases are tried in the order added.
         *
         * @param type failures of this type (and subtypes)
         * @param directive what to do with them
         * @return this builder
         */
        public Builder on(Class<? extends Throwable> type, Directive directive) {
            types.add(Objects.requireNonNull(type, "type"));
            directives.add(Objects.requireNonNull(directive, "directive"));
            return this;
        }

        /**
         * @param directive what to do with failures no case matches; default {@link Directive#STOP}
         * @return this builder
         */
        public Builder otherwise(Directive directive) {
            this.otherwise = Objects.requireNonNull(directive, "directive");
            return this;
        }

        /**
         * @param min the delay before the first restart, not negative
         * @param max the largest delay, at least {@code min}
         * @param factor how much each further restart's delay grows, at least 1
         * @return this builder
         * @throws IllegalArgumentException naming the argument that is out of range
         */
        public Builder backoff(Duration min, Duration max, double factor) {
            Objects.requireNonNull(min, "min");
            Objects.requireNonNull(max, "max");
            if (min.isNegative()) {
                throw new IllegalArgumentException("backoff min: must not be negative, was " + min);
            }
            if (max.compareTo(min) < 0) {
                throw new IllegalArgumentException("backoff max: must be at least min " + min + ", was " + max);
            }
            if (!(factor >= 1.0) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException("backoff factor: must be a finite number >= 1, was " + factor);
            }
            this.minBackoff = min;
            this.maxBackoff = max;
            this.factor = factor;
            return this;
        }

        /**
         * @param max restarts allowed within {@code window}, not negative; one more stops the actor
         * @param window the sliding window, positive
         * @return this builder
         * @throws IllegalArgumentException naming the argument that is out of range
         */
        public Builder maxRestarts(int max, Duration window) {
            Objects.requireNonNull(window, "window");
            if (max < 0) {
                throw new IllegalArgumentException("maxRestarts: must not be negative, was " + max);
            }
            if (window.isNegative() || window.isZero()) {
                throw new IllegalArgumentException("maxRestarts window: must be positive, was " + window);
            }
            this.maxRestarts = max;
            this.window = window;
            return this;
        }

        /** @return the strategy */
        public SupervisorStrategy build() {
            return new SupervisorStrategy(this);
        }
    }
}
