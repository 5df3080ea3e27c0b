package io.weft.actors;

import io.weft.actors.spi.RouterProvider;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The spec of a pool router ({@link Routers#pool(int, Supplier)}): a {@link Behavior} that, when
 * spawned, spawns {@link #size()} routees as its children and routes each message it gets to them by
 * its {@link #strategy()}. Immutable; each {@code with} method returns a copy. One spec may be
 * spawned any number of times.
 *
 * <p><b>Supervision.</b> A routee that fails is handled by the pool's {@link #supervisor()}
 * strategy, {@link SupervisorStrategy#restarting()} by default: it restarts in place, with the same
 * ref, keeping its mailbox, and the router and the other routees are not involved (Pekko classic's
 * pools escalate every routee failure to the router's parent by default; a strategy with
 * {@link SupervisorStrategy.Directive#ESCALATE} does that here: the routee stops and the router
 * fails, and a restart of the router keeps its routees, see {@link Routers}). A routee that stops
 * anyway (its behavior ended, it was stopped from outside, or its restarts ran out) is replaced by
 * a fresh one as long as the strategy's restart budget ({@link SupervisorStrategy#maxRestarts()}
 * within {@link SupervisorStrategy#window()}) allows; past it the pool runs short until the next
 * routee stop within the budget, the router's restart or (with a
 * {@linkplain #withResizer(int, int) resizer}) a resize check under pressure, and a pool with no
 * routee left sends what it gets to dead letters ({@link DeadLetter.Reason#NO_ROUTEES}). A routee
 * factory that throws a {@link RuntimeException} while the pool replaces a routee is retried on the
 * router's timer, with the strategy's backoff; the pool warns and counts each failed call
 * ({@link Routers}, "A pool keeps its size").
 *
 * @param <M> the message type
 */
public final class PoolRouter<M> implements Behavior<M> {

    private final int size;
    private final Supplier<? extends Behavior<M>> factory;
    private final Routers.Strategy strategy;
    private final Function<? super M, ?> hashKey;
    private final int virtualNodes;
    private final SupervisorStrategy supervisor;
    private final int lowerBound;
    private final int upperBound;

    private PoolRouter(int size, Supplier<? extends Behavior<M>> factory, Routers.Strategy strategy, Function<? super M, ?> hashKey,
            int virtualNodes, SupervisorStrategy supervisor, int lowerBound, int upperBound) {
        this.size = size;
        this.factory = factory;
        this.strategy = strategy;
        this.hashKey = hashKey;
        this.virtualNodes = virtualNodes;
        this.supervisor = supervisor;
        this.lowerBound = lowerBound;
        this.upperBound = upperBound;
    }

    static <M> PoolRouter<M> create(int size, Supplier<? extends Behavior<M>> factory) {
        if (size < 1) {
            throw new IllegalArgumentException("Routers.pool: size must be at least 1, was " + size
                    + "; give the number of routees to spawn");
        }
        if (factory == null) {
            throw new IllegalArgumentException("Routers.pool: the behavior factory is null; pass a supplier of each routee's behavior");
        }
        return new PoolRouter<>(size, factory, Routers.Strategy.ROUND_ROBIN, null, 0, SupervisorStrategy.restarting(), size, size);
    }

    private PoolRouter<M> with(Routers.Strategy s, Function<? super M, ?> key, int vnodes) {
        requireResizable(s, lowerBound != upperBound);
        return new PoolRouter<>(size, factory, s, key, vnodes, supervisor, lowerBound, upperBound);
    }

    /** @return a copy routing each message to the next routee in turn (the default) */
    public PoolRouter<M> withRoundRobin() {
        return with(Routers.Strategy.ROUND_ROBIN, null, 0);
    }

    /** @return a copy routing each message to a routee chosen at random */
    public PoolRouter<M> withRandom() {
        return with(Routers.Strategy.RANDOM, null, 0);
    }

    /**
     * Routes by a hash ring with 100 virtual nodes per routee: messages with equal keys go to one
     * routee, and a routee's leaving moves only the keys it had.
     *
     * @param key the message's key (its {@code hashCode} is used; a null key hashes as 0), not null
     * @return a copy routing by consistent hashing of {@code key}
     * @throws IllegalArgumentException if {@code key} is null
     */
    public PoolRouter<M> withConsistentHashing(Function<? super M, ?> key) {
        return withConsistentHashing(key, 100);
    }

    /**
     * Like {@link #withConsistentHashing(Function)} with a given number of virtual nodes.
     *
     * @param key the message's key, not null
     * @param virtualNodes points per routee on the ring, at least 1
     * @return a copy routing by consistent hashing of {@code key}
     * @throws IllegalArgumentException if {@code key} is null or {@code virtualNodes} less than 1
     */
    public PoolRouter<M> withConsistentHashing(Function<? super M, ?> key, int virtualNodes) {
        Routers.requireKey(key);
        return with(Routers.Strategy.CONSISTENT_HASHING, key, Routers.requireVirtualNodes(virtualNodes));
    }

    /** @return a copy sending every message to every routee */
    public PoolRouter<M> withBroadcast() {
        return with(Routers.Strategy.BROADCAST, null, 0);
    }

    /** @return a copy sending each message to an idle routee, else to the one with the fewest queued messages */
    public PoolRouter<M> withSmallestMailbox() {
        return with(Routers.Strategy.SMALLEST_MAILBOX, null, 0);
    }

    /**
     * The routees share the work: the router gives a message only to a routee that has finished the
     * previous one and keeps the rest itself, so no message waits behind a busy routee while another
     * is idle.
     *
     * @return a copy that balances the work over the routees
     */
    public PoolRouter<M> withBalancing() {
        return with(Routers.Strategy.BALANCING, null, 0);
    }

    /**
     * @param strategy what a routee's failure does, not null; default {@link SupervisorStrategy#restarting()}
     * @return a copy with that strategy
     */
    public PoolRouter<M> withSupervisor(SupervisorStrategy strategy) {
        return new PoolRouter<>(size, factory, this.strategy, hashKey, virtualNodes, Objects.requireNonNull(strategy, "supervisor"),
                lowerBound, upperBound);
    }

    /**
     * Lets the pool grow and shrink with mailbox pressure: after each message, when every routee has
     * at least one message queued the pool adds a routee (up to {@code upper}); when at least half
     * of the routees are idle it retires one (down to {@code lower}). A pool that runs short of the
     * size it settled on (its routee factory threw, or routees stopped past the restart budget) and
     * is under that pressure first spawns the routees it lacks, within the restart budget, as a
     * replacement would. The pool starts with
     * {@link #size()} routees, clamped to the bounds. Not for {@link Routers.Strategy#CONSISTENT_HASHING}
     * (keys would move) nor {@link Routers.Strategy#BROADCAST}: combining them throws
     * {@link IllegalArgumentException}, in either order.
     *
     * @param lower the fewest routees, at least 1
     * @param upper the most routees, at least {@code lower}
     * @return a copy with that resizer
     * @throws IllegalArgumentException naming the bound that is out of range, or if the strategy
     *     is consistent hashing or broadcast
     */
    public PoolRouter<M> withResizer(int lower, int upper) {
        if (lower < 1) {
            throw new IllegalArgumentException("withResizer: lower must be at least 1, was " + lower);
        }
        if (upper < lower) {
            throw new IllegalArgumentException("withResizer: upper must be at least lower (" + lower + "), was " + upper);
        }
        requireResizable(strategy, lower != upper);
        return new PoolRouter<>(Math.max(lower, Math.min(upper, size)), factory, strategy, hashKey, virtualNodes, supervisor, lower, upper);
    }

    private static void requireResizable(Routers.Strategy s, boolean resizes) {
        if (resizes && (s == Routers.Strategy.CONSISTENT_HASHING || s == Routers.Strategy.BROADCAST)) {
            throw new IllegalArgumentException("a resizer does not go with " + s + " (" + (s == Routers.Strategy.BROADCAST
                    ? "every routee gets every message" : "keys would move at each resize")
                    + "); give the pool a fixed size, or choose another strategy");
        }
    }

    /** @return how many routees the pool starts with */
    public int size() {
        return size;
    }

    /** @return the routee behavior factory */
    public Supplier<? extends Behavior<M>> factory() {
        return factory;
    }

    /** @return how the pool picks a routee */
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

    /** @return the routees' supervisor strategy */
    public SupervisorStrategy supervisor() {
        return supervisor;
    }

    /** @return the resizer's lower bound; equal to {@link #upperBound()} and {@link #size()} without a resizer */
    public int lowerBound() {
        return lowerBound;
    }

    /** @return the resizer's upper bound */
    public int upperBound() {
        return upperBound;
    }

    /** @return whether the pool resizes */
    public boolean resizes() {
        return lowerBound != upperBound;
    }

    /**
     * Runs the router: spawns the routees and routes. Called by the runtime when the spec is spawned.
     *
     * @param self the router's context
     * @throws Exception if the runtime fails to start it
     */
    @Override
    public void start(ActorContext<M> self) throws Exception {
        RouterProvider.get().startPool(self, this);
    }

    @Override
    public String toString() {
        return "PoolRouter[" + strategy + ", size " + size + (resizes() ? " (" + lowerBound + ".." + upperBound + ")" : "") + ", "
                + supervisor + "]";
    }
}
