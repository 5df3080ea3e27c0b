package io.weft.actors.runtime.internal.routing;

import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.GroupRouter;
import io.weft.actors.PoolRouter;
import io.weft.actors.Props;
import io.weft.actors.Routers.Strategy;
import io.weft.actors.runtime.internal.cell.Cell;
import io.weft.actors.runtime.internal.cell.CellHost;
import io.weft.actors.runtime.internal.cell.RoutedRef;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Gives a router that routes on the sender's thread its routes before its ref is handed out: on
 * the spawning thread, before the router's cell is first activated, it spawns a pool's routees (or
 * watches a group's) and publishes them on the {@link RoutedRef}.
 */
public final class SpawnTimeRoutes {
    /* design
     * Why: a sender that got the router's ref must never find it without routes, or its first
     * messages would queue at the router actor and a later one, routed directly, could overtake
     * them at a routee. So spawn publishes the routes before it returns the ref (Pekko classic
     * likewise creates a pool's routees while making the router's ref), and every message a
     * sender tells goes directly: per sender and routee, FIFO from the first message.
     *
     * Soundness. The router's cell is registered, supervised and adopted by its parent but not yet
     * activated, so no thread runs it and nothing of it is read concurrently; the calls made here
     * are the system's own thread-safe operations, not the owner-only context methods:
     * - a pool's routees are spawned with CellHost.spawnSupervised(router cell, ...), exactly what
     *   the router's spawnChild does: children of the router cell (Deathwatch.adopt), with the
     *   pool's supervisor strategy, unnamed (no name to collide). A routee that fails before the
     *   router's first turn restarts in place by its own Supervision; an escalation, like a
     *   Terminated, is a message queued in the router's mailbox and handled at its first turn.
     * - each routee is watched with CellHost.watch(router cell, routee), what the router's watch
     *   does; a routee that has already stopped yields its Terminated at once (Deathwatch.watch).
     *   A router stopped before its first turn stops its children (Deathwatch.terminated) and
     *   withdraws the routes (CellLifecycle.terminate), so later messages are its dead letters.
     * - the first activation (a release CAS of the activation word) publishes all of it to the
     *   router's first turn, where Router adopts the published Routes (routees, ring, round-robin
     *   position) instead of spawning.
     * If a routee's factory or a watch throws, the routees made here are unwatched and stopped,
     * nothing is published, and the router starts as any router does in its first turn (calling
     * the factory again, whose failure is then the router's failure, as for every actor's start);
     * meanwhile its messages queue at the router, which routes them. A restarted router takes over
     * the routees and routes of its previous incarnation (Router's design block).
     */

    private SpawnTimeRoutes() {
    }

    /**
     * Spawns the routees and publishes the routes, if {@code cell} is a router that routes on the
     * sender's thread; called by spawn before the cell's first activation.
     *
     * @param cell the new cell, not yet activated
     * @param spec its behavior
     */
    @SuppressWarnings("unchecked")
    public static void publish(Cell<?> cell, Behavior<?> spec) {
        // in this order, so that RoutedRef is loaded only when a router is spawned (LocalRef's design block)
        if (!(spec instanceof PoolRouter<?> || spec instanceof GroupRouter<?>) || !(cell.localRef() instanceof RoutedRef<?> ref)) {
            return;
        }
        CellHost host = cell.weftSystem();
        List<Routee> made = new ArrayList<>();
        try {
            if (spec instanceof PoolRouter<?> pool) {
                Props props = Props.defaults().withSupervisor(pool.supervisor());
                Supplier<? extends Behavior<Object>> factory = (Supplier<? extends Behavior<Object>>) (Supplier<?>) pool.factory();
                for (int i = 0; i < pool.size(); i++) {
                    ActorRef<Object> routee = host.spawnSupervised(cell, props, factory, false);
                    made.add(new Routee(routee));
                    host.watch(cell, routee);
                }
                publish(ref, host, made, pool.strategy(), pool.hashKey(), pool.virtualNodes());
            } else if (spec instanceof GroupRouter<?> group) {
                for (ActorRef<?> routee : group.routees()) {
                    if (!routee.isTerminated()) { // as Router.group: a stopped one is left out
                        host.watch(cell, routee);
                        made.add(new Routee(routee));
                    }
                }
                publish(ref, host, made, group.strategy(), group.hashKey(), group.virtualNodes());
            }
        } catch (RuntimeException e) {
            for (Routee r : made) {
                host.unwatch(cell, r.ref);
                if (spec instanceof PoolRouter<?>) {
                    host.stop(r.ref);
                }
            }
        }
    }

    private static void publish(RoutedRef<?> ref, CellHost host, List<Routee> made, Strategy strategy,
            Function<?, ?> hashKey, int virtualNodes) {
        Routee[] routees = made.toArray(new Routee[0]);
        @SuppressWarnings("unchecked")
        Function<Object, ?> key = (Function<Object, ?>) hashKey;
        ref.publish(new SenderRoutes(routees, strategy, Router.ringOf(routees, strategy, virtualNodes), key, ref,
                host.deadLetterOffice(), 0));
    }
}
