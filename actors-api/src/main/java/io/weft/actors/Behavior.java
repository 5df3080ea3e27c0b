package io.weft.actors;

/**
 * The body of an actor: the code that runs when it starts.
 *
 * <p>For an event-based actor the body usually ends by registering a continuation with
 * {@link ActorContext#react(Receive)}, often inside {@link ActorContext#loop(Runnable)}. For a
 * thread-based actor (see {@link ActorSystem#spawnThread(String, Behavior)}) the body is ordinary
 * sequential code that calls {@link ActorContext#receive(Receive)} whenever it wants a message;
 * the actor stops when the body returns.
 *
 * <p>A body that throws fails the actor: its failure is logged, published on
 * {@link ActorSystem#lifecycle()}, and the actor stops, unless its
 * {@linkplain Props#withSupervisor(SupervisorStrategy) supervisor strategy} restarts or resumes it.
 * The worker thread survives.
 *
 * @param <M> the type of messages on the actor's main channel
 */
@FunctionalInterface
public interface Behavior<M> {

    /**
     * Runs the actor's body. Called once, on the thread the actor's scheduler chose.
     *
     * @param self the actor's own context: its ref, mailbox operations and lifecycle
     * @throws Exception anything; it fails the actor
     */
    void start(ActorContext<M> self) throws Exception;
}
