package io.weft.actors;

import io.weft.actors.spi.Scheduler;
import java.util.Objects;

/**
 * How to spawn an actor: its name, mailbox kind, scheduler, supervisor and what it does with
 * messages no handler matches. Immutable; each {@code with} method returns a copy.
 *
 * <pre>{@code
 * Props props = Props.named("orders").withMailbox(Mailbox.bounded(1000, Overflow.DROP_NEW));
 * }</pre>
 *
 * @param name the unique name, or null for a generated {@code "$" + id}
 * @param mailbox the mailbox kind
 * @param scheduler the scheduler, or null for the system's default (ForkJoinPool for event-based
 *     actors, virtual threads for thread-based ones)
 * @param supervisor what happens when the actor fails, or null to stop it
 *     ({@link SupervisorStrategy#stopping()})
 * @param unhandled what the actor does with messages its handler does not match, or null for the
 *     system's default ({@link ActorSystem.Builder#maxKept(int)}; see {@link Unhandled})
 */
public record Props(String name, Mailbox mailbox, Scheduler scheduler, SupervisorStrategy supervisor, Unhandled unhandled) {

    private static final Props DEFAULT = new Props(null, Mailbox.unbounded(), null, null, null);

    /**
     * Props with the system's default {@link Unhandled} policy.
     *
     * @param name null or a valid name
     * @param mailbox not null
     * @param scheduler any, or null
     * @param supervisor any, or null
     */
    public Props(String name, Mailbox mailbox, Scheduler scheduler, SupervisorStrategy supervisor) {
        this(name, mailbox, scheduler, supervisor, null);
    }

    /**
     * Props without a supervisor strategy.
     *
     * @param name null or a valid name
     * @param mailbox not null
     * @param scheduler any, or null
     */
    public Props(String name, Mailbox mailbox, Scheduler scheduler) {
        this(name, mailbox, scheduler, null);
    }

    /**
     * Validates the arguments.
     *
     * @param name null or a non-blank name without {@code '/'} or {@code '#'}
     * @param mailbox not null
     * @param scheduler any, or null
     * @param supervisor any, or null
     * @param unhandled any, or null
     */
    public Props {
        if (name != null && (name.isBlank() || name.indexOf('/') >= 0 || name.indexOf('#') >= 0 || name.startsWith("$"))) {
            throw new IllegalArgumentException("actor name must be non-blank, not start with '$' and contain no '/' or '#': \"" + name + "\"");
        }
        Objects.requireNonNull(mailbox, "mailbox");
    }

    /** @return the defaults: generated name, unbounded mailbox, default scheduler */
    public static Props defaults() {
        return DEFAULT;
    }

    /**
     * @param name the unique name
     * @return the defaults with that name
     */
    public static Props named(String name) {
        return DEFAULT.withName(Objects.requireNonNull(name, "name"));
    }

    /**
     * @param name the unique name, or null
     * @return a copy with that name
     */
    public Props withName(String name) {
        return new Props(name, mailbox, scheduler, supervisor, unhandled);
    }

    /**
     * @param mailbox the mailbox kind
     * @return a copy with that mailbox
     */
    public Props withMailbox(Mailbox mailbox) {
        return new Props(name, mailbox, scheduler, supervisor, unhandled);
    }

    /**
     * @param scheduler the scheduler, or null for the default
     * @return a copy with that scheduler
     */
    public Props withScheduler(Scheduler scheduler) {
        return new Props(name, mailbox, scheduler, supervisor, unhandled);
    }

    /**
     * A strategy that restarts needs the actor spawned from a behavior factory
     * ({@link ActorSystem#spawn(Props, java.util.function.Supplier)}), so that each restart starts
     * from fresh state.
     *
     * @param supervisor what happens when the actor fails, or null to stop it
     * @return a copy with that strategy
     */
    public Props withSupervisor(SupervisorStrategy supervisor) {
        return new Props(name, mailbox, scheduler, supervisor, unhandled);
    }

    /**
     * @param unhandled what the actor does with messages its handler does not match, or null for
     *     the system's default
     * @return a copy with that policy
     */
    public Props withUnhandled(Unhandled unhandled) {
        return new Props(name, mailbox, scheduler, supervisor, unhandled);
    }

    /**
     * Keeps at most {@code maxKept} messages that no handler matched (selective receive); beyond
     * that the oldest goes to dead letters with {@link DeadLetter.Reason#UNHANDLED}.
     *
     * @param maxKept at least 1; the system's default is {@link Unhandled#DEFAULT_MAX_KEPT}
     * @return a copy with that bound
     * @throws IllegalArgumentException if {@code maxKept} is less than 1
     */
    public Props withMaxKept(int maxKept) {
        return withUnhandled(Unhandled.keep(maxKept));
    }

    /**
     * Pekko's behaviour: a message the current handler does not match goes to dead letters at once
     * ({@link DeadLetter.Reason#UNHANDLED}) instead of being kept for a later handler.
     *
     * @return a copy with that policy
     */
    public Props withUnhandledToDeadLetters() {
        return withUnhandled(Unhandled.deadLetter());
    }
}
