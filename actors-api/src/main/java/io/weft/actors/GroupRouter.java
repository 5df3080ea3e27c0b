package io.weft.actors;

import io.weft.actors.spi.RouterProvider;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * The spec of a group router ({@link Routers#group(Collection)}): a {@link Behavior} that routes each
 * message it gets to one of the given actors (or all of them, {@link #withBroadcast()}). The router
 * watches its routees; one that stops is removed, and with none left what the router gets goes to
 * dead letters ({@link DeadLetter.Reason#NO_ROUTEES}). Immutable; each {@code with} method returns a
 * copy.
 *
 * @param <M> the message type
 */
public final class GroupRouter<M> implements Behavior<M> {

    private final List<ActorRef<M>> routees;
    private final Routers.Strategy strategy;
    private final Function<? super M, ?> hashKey;
    private final int virtualNodes;

    private GroupRouter(List<ActorRef<M>> routees, Routers.Strategy strategy, Function<? super M, ?> hashKey, int virtualNodes) {
        this.routees = routees;
        this.strategy = strategy;
        this.hashKey = hashKey;
        this.virtualNodes = virtualNodes;
    }

    static <M> GroupRouter<M> create(Collection<? extends ActorRef<M>> routees) {
        if (routees == null || routees.isEmpty()) {
            throw new IllegalArgumentException("Routers.group: routees must hold at least one actor, was " + routees
                    + "; pass the refs to route to");
        }
        List<ActorRef<M>> copy = new ArrayList<>(routees.size());
        int i = 0;
        for (ActorRef<M> r : routees) {
            if (r == null) {
                throw new IllegalArgumentException("Routers.group: routee " + i + " is null; pass only live refs");
            }
            copy.add(r);
            i++;
        }
        return new GroupRouter<>(List.copyOf(copy), Routers.Strategy.ROUND_ROBIN, null, 0);
    }

    /** @return a copy routing each message to the next routee in turn (the default) */
    public GroupRouter<M> withRoundRobin() {
        return new GroupRouter<>(routees, Routers.Strategy.ROUND_ROBIN, null, 0);
    }

    /** @return a copy routing each message to a routee chosen at random */
    public GroupRouter<M> withRandom() {
        return new GroupRouter<>(routees, Routers.Strategy.RANDOM, null, 0);
    }

    /**
     * Routes by a hash ring with 100 virtual nodes per routee; see
     * {@link PoolRouter#withConsistentHashing(Function)}.
     *
     * @param key the message's key, not null
     * @return a copy routing by consistent hashing of {@code key}
     * @throws IllegalArgumentException if {@code key} is null
     */
    public GroupRouter<M> withConsistentHashing(Function<? super M, ?> key) {
        return withConsistentHashing(key, 100);
    }

    /**
     * @param key the message's key, not null
     * @param virtualNodes points per routee on the ring, at least 1
     * @return a copy routing by consistent hashing of {@code key}
     * @throws IllegalArgumentException if {@code key} is null or {@code virtualNodes} less than 1
     */
    public GroupRouter<M> withConsistentHashing(Function<? super M, ?> key, int virtualNodes) {
        Routers.requireKey(key);
        return new GroupRouter<>(routees, Routers.Strategy.CONSISTENT_HASHING, key, Routers.requireVirtualNodes(virtualNodes));
    }

    /** @return a copy sending every message to every routee */
    public GroupRouter<M> withBroadcast() {
        return new GroupRouter<>(routees, Routers.Strategy.BROADCAST, null, 0);
    }

    /** @return a copy sending each message to an idle routee, else to the one with the fewest queued messages */
    public GroupRouter<M> withSmallestMailbox() {
        return new GroupRouter<>(routees, Routers.Strategy.SMALLEST_MAILBOX, null, 0);
    }

    /** @return the routees given */
    public List<ActorRef<M>> routees() {
        return routees;
    }

    /** @return how the group picks a routee */
    public Routers.Strategy strategy() {
        return strategy;
    }

    /** @return the key function of consistent hashing, or null for other strategies */
    public Function<? super M, ?> hashKey() {
        return hashKey;
    }

    /** @return virtual nodes per routee of consistent hashing, or 0 for other strategies */
    public int virtualNodes() {
        return virtualNodes;
    }

    /**
     * Runs the router: watches the routees and routes. Called by the runtime when the spec is spawned.
     *
     * @param self the router's context
     * @throws Exception if the runtime fails to start it
     */
    @Override
    public void start(ActorContext<M> self) throws Exception {
        RouterProvider.get().startGroup(self, this);
    }

    @Override
    public String toString() {
        return "GroupRouter[" + strategy + ", " + routees.size() + " routees]";
    }
}
