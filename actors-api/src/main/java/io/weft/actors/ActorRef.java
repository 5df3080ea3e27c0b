package io.weft.actors;

/**
 * A handle to an actor: its main {@link Channel}, its identity and its name.
 *
 * <p>A ref is only a name: it gives no path to the actor's object or state (encapsulation, Karmani et al. 2009,
 * §3.1). Two refs are {@code equal} exactly when they denote the same actor; an actor keeps one ref
 * for its whole life, through restarts and moves between {@code receive} and {@code react}.
 *
 * <p>Every actor has a unique id that is never reused within its system, and an optional unique
 * name by which {@link ActorSystem#lookup(String)} finds it. {@code toString()} shows both.
 *
 * @param <M> the type of messages the actor's main channel accepts
 */
public interface ActorRef<M> extends Channel<M> {

    /**
     * The actor's id: unique in its system and never reused.
     *
     * @return the id, positive
     */
    long id();

    /**
     * The actor's name: the one given at spawn, or a generated {@code "$" + id}.
     *
     * @return the name, never null
     */
    String name();

    /**
     * A stable address of this actor, {@code weft://system/name#id}, that
     * {@link ActorSystem#resolve(String)} turns back into this ref.
     *
     * @return the address string
     */
    String address();

    /**
     * Whether the actor has stopped. A message sent to a stopped actor goes to dead letters.
     *
     * @return true once the actor has terminated, for good
     */
    boolean isTerminated();

    /** {@inheritDoc} An actor's main channel is owned by the actor itself. */
    @Override
    default ActorRef<?> owner() {
        return this;
    }
}
