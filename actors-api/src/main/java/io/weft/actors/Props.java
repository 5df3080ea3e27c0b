package io.weft.actors;

import io.weft.actors.spi.Scheduler;
import java.util.Objects;

/**
 * How to spawn an actor: its name, mailbox kind and scheduler. Immutable; each {@code with} method
 * returns a copy.
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
 */
public record Props(String name, Mailbox mailbox, Scheduler scheduler, SupervisorStrategy supervisor) {

    private static final Props DEFAULT = new Props(null, Mailbox.unbounded(), null, null);

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
        return new Props(name, mailbox, scheduler, supervisor);
    }

    /**
     * @param mailbox the mailbox kind
     * @return a copy with that mailbox
     */
    public Props withMailbox(Mailbox mailbox) {
        return new Props(name, mailbox, scheduler, supervisor);
    }

    /**
     * @param scheduler the scheduler, or null for the default
     * @return a copy with that scheduler
     */
    public Props withScheduler(Scheduler scheduler) {
        return new Props(name, mailbox, scheduler, supervisor);
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
        return new Props(name, mailbox, scheduler, supervisor);
    }
}
