package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.GroupRouter;
import io.weft.actors.PoolRouter;
import io.weft.actors.Routers.Strategy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The ref of a router that routes on the sender's thread: {@code tell} picks the routee from the
 * routes the router actor published and tells it directly, without a hop through the router's
 * mailbox.
 *
 * @param <M> the message type
 */
public final class RoutedRef<M> extends LocalRef<M> {

    /* design
     * Which routers: round-robin, random, consistent hashing and broadcast, pools without a
     * resizer and groups. They need no state of the router actor to pick a routee: the routee
     * array (and for consistent hashing the ring built from it) is immutable, round-robin's
     * position is an atomic counter. Smallest mailbox, balancing and resizing pools keep every
     * message going through the router actor (a plain LocalRef), because their choice depends on
     * state the router owns (busy flags, its backlog, the count of routed messages).
     *
     * The router actor stays the owner of membership: it spawns, watches, replaces and removes
     * routees, and after each change builds a new immutable Routes (routees, ring) and publishes
     * it with a release store; `tell` reads it with an acquire load, so a sender sees a complete
     * Routes. A sender holding the previous Routes may tell a routee that has just stopped: that
     * routee's cell sends the message to dead letters (RECIPIENT_STOPPED, counted), as it did when
     * the router told it. With no routee left, Routes sends to dead letters with NO_ROUTEES. When
     * the router's cell stops it publishes null (cellStopped), so later messages reach the
     * stopped cell and become its dead letters.
     *
     * Order. Spawn publishes the routes before it returns the ref (routing.SpawnTimeRoutes: a
     * pool's routees are spawned as the router cell's children on the spawning thread, a group's
     * are watched), so a sender never finds this ref without routes: every message goes directly,
     * each routee's mailbox is FIFO, and per sender and routee messages arrive in the order told,
     * from the first message after spawn, whether or not the router actor has run. Pekko classic
     * keeps the same order the same way (it creates a pool's routees while making the router's
     * ref). Measured alternatives not adopted: (1) routes published in the router's first turn,
     * messages told before it queued at the router: a later message routed directly overtook them
     * at a routee; (2) with (1), senders kept going through the router while any message told
     * before the start was still queued there (a count in this ref, decremented by the router):
     * order kept, but a sender faster than the router never saw the count reach 0, so every
     * message of a pool flooded from its first moments passed through the router (router
     * bench, commit 7475d52, five JVMs per jar alternating with main's, load 10-16: the pool
     * took 1.01x the router actor's time, against 0.56x without the count). The routes are null, and messages queue at
     * the router, only if the spawn-time step failed (a routee factory threw; the router then
     * fails at its start, or spawns its routees in its first turn and routes what queued with
     * them). A restart of the router does not withdraw them: the router hands its membership to
     * its next incarnation (Cell.handOver), a pool's routees are not stopped, and the routes
     * stay valid, so senders go on telling the routees directly and the order above holds
     * across the restart (Router's design block). Between senders there is no order, as between
     * any senders of one actor. A change
     * of routees can send a message to another routee than its predecessor (round-robin's
     * position, a key whose ring arc moved); no order holds between different routees.
     *
     * Management messages do not pass through here: Terminated (death watch) and supervision
     * signals reach the router's cell directly, and the pool's membership changes are the
     * router's own actions. Death watch of this ref, `ask` through it (the promise is the
     * replyTo the routee answers) and `stop` work as on any LocalRef: it is the router cell's one
     * ref.
     */

    private static final VarHandle ROUTES;

    static {
        try {
            ROUTES = MethodHandles.lookup().findVarHandle(RoutedRef.class, "routes", Routes.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    /** The published routes, or null: written with release by the router, read with acquire. */
    @SuppressWarnings("unused") // through ROUTES
    private Routes routes;

    RoutedRef(Cell<M> cell, String name) {
        super(cell);
        this.name = name;
    }

    /** The ref of a new router cell; a factory, so that LocalRef's bytecode names this class only in calls. */
    static <M> LocalRef<M> create(Cell<M> cell, String name) {
        return new RoutedRef<>(cell, name);
    }

    /**
     * Whether a router spec routes on the sender's thread.
     *
     * @param behavior a {@link PoolRouter} or {@link GroupRouter}
     * @return true for round-robin, random, consistent hashing and broadcast, pools without a resizer
     */
    public static boolean routesOnSender(Behavior<?> behavior) {
        Strategy s;
        if (behavior instanceof PoolRouter<?> p) {
            if (p.resizes()) {
                return false;
            }
            s = p.strategy();
        } else if (behavior instanceof GroupRouter<?> g) {
            s = g.strategy();
        } else {
            return false;
        }
        return s == Strategy.ROUND_ROBIN || s == Strategy.RANDOM || s == Strategy.CONSISTENT_HASHING || s == Strategy.BROADCAST;
    }

    @Override
    public void tell(M message) {
        send(cell().weftSystem().checkMessage(message), null);
    }

    @Override
    public void tell(M message, ActorRef<?> replyTo) {
        send(cell().weftSystem().checkMessage(message), replyTo);
    }

    private void send(Object message, ActorRef<?> replyTo) {
        Routes r = (Routes) ROUTES.getAcquire(this);
        if (r != null) {
            r.route(message, replyTo);
        } else {
            cell().sendMain(message, replyTo);
        }
    }

    /**
     * The routes senders use now.
     *
     * @return the published routes, or null if senders send to the router's cell
     */
    public Routes routes() {
        return (Routes) ROUTES.getAcquire(this);
    }

    /**
     * Publishes the routes senders use from now on; called by the router actor only.
     *
     * @param now the routes, or null to send everything to the router's cell again
     */
    public void publish(Routes now) {
        ROUTES.setRelease(this, now);
    }

    @Override
    void cellStopped() {
        publish(null);
    }

    @Override
    public String name() {
        return name != null ? name : super.name();
    }

    @Override
    public boolean hasGivenName() {
        return name != null;
    }

    /** How senders pick routees: built and published by the router actor, immutable but for round-robin's counter. */
    public abstract static class Routes {

        /** For subclasses. */
        protected Routes() {
        }

        /**
         * Tells {@code message} to its routee (or to every routee, or to dead letters if there is none).
         *
         * @param message the checked message
         * @param replyTo the sender, or null
         */
        public abstract void route(Object message, ActorRef<?> replyTo);
    }
}
