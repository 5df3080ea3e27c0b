package io.weft.actors;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The ordered shutdown of a system (Pekko's {@code CoordinatedShutdown}): named phases, run in
 * the order of {@link #PHASES}, each running the tasks added to it, then the system closes.
 * {@link ActorSystem#close()} runs it; so does the JVM shutdown hook when
 * {@link Settings#jvmShutdownHook()} is on.
 *
 * <pre>{@code
 * ActorSystem system = ActorSystem.builder().name("svc")
 *         .coordinatedShutdown(CoordinatedShutdown.Settings.defaults()
 *                 .withPendingMail(CoordinatedShutdown.PendingMail.DRAIN, Duration.ofSeconds(2)))
 *         .build();
 * system.coordinatedShutdown().addTask(CoordinatedShutdown.SERVICE_UNBIND, "http-unbind",
 *         () -> server.unbind());
 * system.close(); // runs the phases, drains the mailboxes, closes
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>The phases run once, in order; the tasks of one phase start together and the phase waits
 *       for all of them, at most its {@linkplain Settings#timeoutOf(String) timeout}. A task that
 *       throws, returns null or completes exceptionally is logged as failed, one still running at
 *       the timeout as timed out; either way the phase, and the shutdown, go on.
 *   <li>Until {@link #ACTOR_SYSTEM_TERMINATE}'s own step, the system runs normally (tasks may
 *       send, ask and spawn). That step, after the phase's tasks, handles the pending mail as
 *       {@link Settings#pendingMail()} says ({@link PendingMail#DEAD_LETTER}: at once;
 *       {@link PendingMail#DRAIN}: the actors go on until every mailbox is empty and no actor
 *       is in a turn, or the drain deadline has passed), then closes the system as
 *       {@link ActorSystem#close()} describes;
 *       what is still queued then goes to dead letters with reason
 *       {@link DeadLetter.Reason#SYSTEM_CLOSED}.
 *   <li>At the end one log line sums it up ({@link Summary}): INFO when there were tasks or a
 *       drain, DEBUG otherwise.
 *   <li>{@link #addTask} is thread-safe; a task added after its phase has started is refused.
 * </ul>
 */
public interface CoordinatedShutdown {

    /** Phase 1: before the service stops taking requests (e.g. mark the node unhealthy). */
    String BEFORE_SERVICE_UNBIND = "before-service-unbind";
    /** Phase 2: stop taking new requests (unbind the listening ports). */
    String SERVICE_UNBIND = "service-unbind";
    /** Phase 3: wait for the requests in flight to finish. */
    String SERVICE_REQUESTS_DONE = "service-requests-done";
    /** Phase 4: stop the service's own parts. */
    String SERVICE_STOP = "service-stop";
    /** Phase 5: last user work while the actors still run (flush, save state). */
    String BEFORE_ACTOR_SYSTEM_TERMINATE = "before-actor-system-terminate";
    /** Phase 6: its tasks, then the pending mail (drain or dead letters), then the system closes. */
    String ACTOR_SYSTEM_TERMINATE = "actor-system-terminate";

    /** The phases, in the order they run. */
    List<String> PHASES = List.of(BEFORE_SERVICE_UNBIND, SERVICE_UNBIND, SERVICE_REQUESTS_DONE, SERVICE_STOP,
            BEFORE_ACTOR_SYSTEM_TERMINATE, ACTOR_SYSTEM_TERMINATE);

    /**
     * Adds a task to a phase.
     *
     * @param phase one of {@link #PHASES}
     * @param name the task's name, for the log and the {@link Summary}; not blank
     * @param task starts the work and returns its completion; not null
     * @throws IllegalArgumentException if {@code phase} is not one of {@link #PHASES}, or
     *     {@code name} is blank
     * @throws NullPointerException if an argument is null
     * @throws IllegalStateException if the phase has already started
     */
    void addTask(String phase, String name, Supplier<? extends CompletionStage<?>> task);

    /**
     * Starts the shutdown on a thread of its own, if it has not started, and returns its outcome;
     * the system is closed when the future completes. {@link ActorSystem#close()} runs it on the
     * calling thread instead (or on that thread from one of the system's own threads).
     *
     * @return the summary, once the system is closed
     */
    CompletableFuture<Summary> run();

    /** What happens to messages still queued when the system terminates. */
    enum PendingMail {
        /** They go to dead letters at once ({@link DeadLetter.Reason#SYSTEM_CLOSED}): the default. */
        DEAD_LETTER,
        /**
         * The actors go on handling them until every mailbox is empty and no actor is in a turn
         * (a thread-based actor running its body on its own thread is not waited for), or the
         * drain deadline has passed.
         */
        DRAIN
    }

    /**
     * The outcome of a shutdown, also logged as one line.
     *
     * @param phasesRun the phases that ran, in order
     * @param tasksRun how many tasks were started
     * @param tasksFailed the tasks that failed, as {@code phase/name}
     * @param tasksTimedOut the tasks still running at their phase's timeout, as {@code phase/name}
     * @param messagesDrained messages handled while draining (0 without {@link PendingMail#DRAIN}):
     *     the growth of {@link SystemMetrics#messagesHandled()} over the drain, which counts the
     *     batches of turns that ended during it
     * @param drainCompleted whether every mailbox was empty before the drain deadline (true
     *     without a drain)
     * @param deadLettered dead letters published from the start of the shutdown until the system
     *     was closed
     * @param took how long the whole shutdown took
     */
    record Summary(List<String> phasesRun, int tasksRun, List<String> tasksFailed, List<String> tasksTimedOut,
            long messagesDrained, boolean drainCompleted, long deadLettered, Duration took) {

        /**
         * Copies the lists.
         *
         * @param phasesRun the phases that ran
         * @param tasksRun tasks started
         * @param tasksFailed failed tasks
         * @param tasksTimedOut timed-out tasks
         * @param messagesDrained messages handled while draining
         * @param drainCompleted whether the drain emptied every mailbox
         * @param deadLettered dead letters during the shutdown
         * @param took the duration
         */
        public Summary {
            phasesRun = List.copyOf(phasesRun);
            tasksFailed = List.copyOf(tasksFailed);
            tasksTimedOut = List.copyOf(tasksTimedOut);
            Objects.requireNonNull(took, "took");
        }
    }

    /**
     * How a system shuts down.
     *
     * @param defaultPhaseTimeout how long a phase waits for its tasks unless
     *     {@code phaseTimeouts} names it; positive
     * @param phaseTimeouts timeouts of single phases, by phase name; each positive
     * @param pendingMail what happens to mail still queued at the end
     * @param drainDeadline how long a {@link PendingMail#DRAIN} may take; positive
     * @param jvmShutdownHook whether a JVM shutdown hook runs the shutdown when the JVM exits
     *     (removed again when the system is closed otherwise)
     */
    record Settings(Duration defaultPhaseTimeout, Map<String, Duration> phaseTimeouts, PendingMail pendingMail,
            Duration drainDeadline, boolean jvmShutdownHook) {

        /** The default phase timeout: 10 seconds. */
        public static final Duration DEFAULT_PHASE_TIMEOUT = Duration.ofSeconds(10);
        /** The default drain deadline: 5 seconds. */
        public static final Duration DEFAULT_DRAIN_DEADLINE = Duration.ofSeconds(5);

        /**
         * Validates.
         *
         * @param defaultPhaseTimeout positive
         * @param phaseTimeouts phase names of {@link #PHASES} to positive durations
         * @param pendingMail not null
         * @param drainDeadline positive
         * @param jvmShutdownHook the hook setting
         */
        public Settings {
            positive("defaultPhaseTimeout", defaultPhaseTimeout);
            Objects.requireNonNull(phaseTimeouts, "phaseTimeouts");
            phaseTimeouts.forEach((phase, timeout) -> {
                checkPhase(phase);
                positive("phaseTimeouts[" + phase + "]", timeout);
            });
            phaseTimeouts = Map.copyOf(phaseTimeouts);
            Objects.requireNonNull(pendingMail, "pendingMail");
            positive("drainDeadline", drainDeadline);
        }

        /** @return 10 s per phase, pending mail to dead letters, no JVM shutdown hook */
        public static Settings defaults() {
            return new Settings(DEFAULT_PHASE_TIMEOUT, Map.of(), PendingMail.DEAD_LETTER, DEFAULT_DRAIN_DEADLINE, false);
        }

        /**
         * @param timeout the timeout of every phase not set otherwise, positive
         * @return a copy with it
         */
        public Settings withDefaultPhaseTimeout(Duration timeout) {
            return new Settings(timeout, phaseTimeouts, pendingMail, drainDeadline, jvmShutdownHook);
        }

        /**
         * @param phase one of {@link #PHASES}
         * @param timeout positive
         * @return a copy with that phase's timeout
         * @throws IllegalArgumentException naming the phase if it is unknown, or the timeout if not positive
         */
        public Settings withPhaseTimeout(String phase, Duration timeout) {
            checkPhase(phase);
            Map<String, Duration> m = new LinkedHashMap<>(phaseTimeouts);
            m.put(phase, timeout);
            return new Settings(defaultPhaseTimeout, m, pendingMail, drainDeadline, jvmShutdownHook);
        }

        /**
         * @param mail what happens to pending mail
         * @param deadline how long a drain may take, positive (kept for {@link PendingMail#DEAD_LETTER})
         * @return a copy with them
         */
        public Settings withPendingMail(PendingMail mail, Duration deadline) {
            return new Settings(defaultPhaseTimeout, phaseTimeouts, mail, deadline, jvmShutdownHook);
        }

        /**
         * @param on whether a JVM shutdown hook runs the shutdown
         * @return a copy with it
         */
        public Settings withJvmShutdownHook(boolean on) {
            return new Settings(defaultPhaseTimeout, phaseTimeouts, pendingMail, drainDeadline, on);
        }

        /**
         * @param phase one of {@link #PHASES}
         * @return its timeout
         */
        public Duration timeoutOf(String phase) {
            return phaseTimeouts.getOrDefault(phase, defaultPhaseTimeout);
        }

        /**
         * @param phase a phase name
         * @return it
         * @throws IllegalArgumentException naming it and the phases if it is not one of {@link #PHASES}
         * @throws NullPointerException if it is null
         */
        public static String checkPhase(String phase) {
            Objects.requireNonNull(phase, "phase");
            if (!PHASES.contains(phase)) {
                throw new IllegalArgumentException("phase: unknown phase \"" + phase + "\"; use one of " + PHASES
                        + " (the constants of CoordinatedShutdown)");
            }
            return phase;
        }

        private static void positive(String what, Duration d) {
            Objects.requireNonNull(d, what);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + ": must be positive, was " + d);
            }
        }
    }
}
