package io.weft.actors;

import java.util.Collection;
import java.util.function.Supplier;

/**
 * Routers: one actor that spreads the messages sent to it over several routees (Pekko's routers,
 * Erlang's worker pools). A router is spawned like any actor and its {@link ActorRef} is the
 * user's handle; the routees never appear in the API unless a group is built over given refs.
 *
 * <pre>{@code
 * ActorRef<Job> workers = system.spawn("workers",
 *     Routers.<Job>pool(4, () -> self -> self.become(Receive.<Job>handler()
 *             .match(Job.class, job -> job.run())
 *             .build()))
 *         .withRoundRobin());
 * }</pre>
 *
 * <p>A {@linkplain #pool(int, Supplier) pool} spawns its routees as its children and supervises
 * them; a {@linkplain #group(Collection) group} routes over refs it is given and watches them. A
 * message the router cannot deliver, because every routee is gone, goes to
 * {@linkplain ActorSystem#deadLetters() dead letters} with {@link DeadLetter.Reason#NO_ROUTEES}.
 * The sender of a routed message is kept, so a routee's {@link ActorContext#reply(Object)} answers
 * the original sender (or the waiting {@code ask}).
 *
 * <p><b>Where routing happens.</b> With {@link Strategy#ROUND_ROBIN}, {@link Strategy#RANDOM},
 * {@link Strategy#CONSISTENT_HASHING} and {@link Strategy#BROADCAST} (pools without a resizer, and
 * groups) the router's ref routes on the sender's thread: {@code tell} picks the routee from the
 * routees the router actor last published and tells it directly, so a message makes no more hops
 * than a direct {@code tell}. The router actor manages the routees (spawns, watches, replaces) and
 * publishes each change. {@link Strategy#SMALLEST_MAILBOX}, {@link Strategy#BALANCING} and
 * resizing pools route in the router actor, one more mailbox hop per message, because their choice
 * depends on the router's own state.
 *
 * <p><b>Order.</b> The messages one sender tells a router reach each routee in the order told,
 * from the first message after {@code spawn} returns, with every strategy, and across restarts of
 * the router (below). A router that routes on the sender's thread gets its routes during
 * {@code spawn}, before its ref is returned: a pool's routees are spawned then (as the router's
 * children) and a group's are watched, so no message waits for the router actor's first run. There
 * is no order between messages to different routees, nor between senders. While the routees
 * change, a sender may still pick a routee that has just stopped; that message becomes a dead
 * letter ({@link DeadLetter.Reason#RECIPIENT_STOPPED}), and the following ones go to the remaining
 * routees.
 *
 * <p><b>A routee's failure.</b> A pool's routees are supervised by the pool's
 * {@linkplain PoolRouter#withSupervisor(SupervisorStrategy) strategy}, applied to the failing
 * routee alone: by default ({@link SupervisorStrategy#restarting()}) it restarts in place, with the
 * same ref and its mailbox, and the router and the other routees go on untouched. A strategy that
 * escalates stops the routee and fails the router with the same failure, which the router's own
 * supervisor then decides (Pekko classic's pools escalate every failure by default; Weft's default
 * keeps one routee's failure inside the pool). A routee that stops is removed and a pool replaces
 * it while the strategy's restart budget lasts. A group's routees are not its children: their own
 * supervisors decide, and the group removes one that stops.
 *
 * <p><b>A pool keeps its size.</b> A pool spawns the routees it lacks (fewer than its
 * {@linkplain PoolRouter#size() size}, or than the count its resizer settled on) in rounds, each
 * run by the router actor in its own turn: when a routee stops (the replacement, within the
 * strategy's restart budget), when the router restarts (before it handles its next message), when a
 * resizer grows the pool, and when a resizer under pressure finds the pool short of that count
 * (within the restart budget, as a replacement). If the routee factory throws a
 * {@link RuntimeException} in a round, the router does not fail: it goes on routing to the routees
 * it has, logs a warning naming itself, the number of routees it runs with, its size and the
 * exception, counts each failed call of the factory ({@link SystemMetrics#routeeSpawnFailures()}),
 * and retries the spawn on its own timer (the retry is a message to the router, so the factory is
 * again called in the router's turn) after the pool strategy's
 * {@linkplain SupervisorStrategy#backoff(int) backoff}, at most
 * {@link SupervisorStrategy#maxRestarts()} times in a row. Then it gives up with a second warning
 * and runs short until the next round. A stopped routee past the restart budget is not replaced
 * until the next round; each is counted the same way, and warned at most once per budget window
 * (the strategy's {@linkplain SupervisorStrategy#window() window}). While the system closes, a pool
 * replaces no routee and a spawn the closing system refuses is neither counted nor retried.
 * Meanwhile each message reaches one of the live routees (a broadcast reaches all of them); a pool
 * left with no routee sends what it is told to dead letters with
 * {@link DeadLetter.Reason#NO_ROUTEES}, and its warning says so. An {@link Error} thrown by the
 * factory (or a checked exception it throws undeclared) is not retried: the router routes to the
 * routees spawned so far, including those of the failed round, and fails with it.
 *
 * <p><b>The router's own restart.</b> A router fails when a routee escalates, when an actor
 * {@linkplain ActorContext#link(ActorRef) linked} to it fails, or when the routee factory throws
 * an {@link Error} or an undeclared checked exception (a consistent-hashing key function that throws fails the sender's
 * {@code tell}, not the router). Spawned with a supervisor that restarts it (and a behavior
 * factory), it restarts keeping its routees: a pool's routees are neither stopped nor respawned
 * (same refs, their state and mailboxes kept) and a pool short of its size spawns the missing
 * ones, a group's routees stay watched, the routes senders use stay published throughout (so
 * messages keep going directly to the routees while the router restarts), and a balancing pool's
 * kept messages and busy routees pass to the restarted router. A router that stops stops a pool's
 * routees with it.
 */
public final class Routers {

    private Routers() {
    }

    /** How a router picks the routee of a message. */
    public enum Strategy {
        /**
         * Each routee in turn, globally: the routees share one position, so over any run of
         * {@code n} messages told to a router of {@code n} routees (by all its senders together,
         * while the routees do not change) each routee gets exactly one.
         */
        ROUND_ROBIN,
        /** A routee chosen uniformly at random. */
        RANDOM,
        /** The routee a key's hash falls to on a hash ring: a key stays on one routee. */
        CONSISTENT_HASHING,
        /** Every routee gets every message. */
        BROADCAST,
        /** An idle routee if there is one, else the one with the fewest queued messages. */
        SMALLEST_MAILBOX,
        /** (Pools only) the next message goes to a routee that has finished its previous one. */
        BALANCING
    }

    /**
     * A pool of {@code size} routees, each running a behavior from {@code factory} (called once per
     * routee and once per restart). Round-robin and restart-on-failure until another strategy or
     * supervisor is chosen.
     *
     * @param size how many routees, at least 1
     * @param factory makes a routee's behavior, not null
     * @param <M> the message type
     * @return the pool's spec, a {@link Behavior} to spawn
     * @throws IllegalArgumentException if {@code size} is less than 1 or {@code factory} is null
     */
    public static <M> PoolRouter<M> pool(int size, Supplier<? extends Behavior<M>> factory) {
        return PoolRouter.create(size, factory);
    }

    /**
     * A group router over the given actors: round-robin until another strategy is chosen. A routee
     * that stops is removed.
     *
     * @param routees the actors to route to, at least one, none null
     * @param <M> the message type
     * @return the group's spec, a {@link Behavior} to spawn
     * @throws IllegalArgumentException if {@code routees} is null, empty or holds null
     */
    public static <M> GroupRouter<M> group(Collection<? extends ActorRef<M>> routees) {
        return GroupRouter.create(routees);
    }

    /**
     * A group router over the given actors; see {@link #group(Collection)}.
     *
     * @param routees the actors to route to, at least one, none null
     * @param <M> the message type
     * @return the group's spec
     * @throws IllegalArgumentException if {@code routees} is null, empty or holds null
     */
    @SafeVarargs
    public static <M> GroupRouter<M> group(ActorRef<M>... routees) {
        if (routees == null) {
            throw new IllegalArgumentException("Routers.group: routees must not be null; pass the actors to route to");
        }
        java.util.List<ActorRef<M>> list = new java.util.ArrayList<>(routees.length);
        for (ActorRef<M> r : routees) {
            list.add(r);
        }
        return GroupRouter.create(list);
    }

    static void requireKey(Object keyFunction) {
        if (keyFunction == null) {
            throw new IllegalArgumentException("withConsistentHashing: the key function is null; pass a function from a message "
                    + "to its key, e.g. withConsistentHashing(Order::customerId)");
        }
    }

    static int requireVirtualNodes(int virtualNodes) {
        if (virtualNodes < 1) {
            throw new IllegalArgumentException("withConsistentHashing: virtualNodes must be at least 1, was " + virtualNodes
                    + "; 100 spreads keys evenly for a handful of routees");
        }
        return virtualNodes;
    }
}
