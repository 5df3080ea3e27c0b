package io.weft.actors.runtime.internal.routing;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.Channel;
import io.weft.actors.DeadLetter;
import io.weft.actors.GroupRouter;
import io.weft.actors.PoolRouter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.ReceiveTimeoutException;
import io.weft.actors.Routers.Strategy;
import io.weft.actors.SupervisorStrategy;
import io.weft.actors.Terminated;
import io.weft.actors.runtime.internal.cell.Cell;
import io.weft.actors.runtime.internal.cell.LocalRef;
import io.weft.actors.runtime.internal.cell.RoutedRef;
import io.weft.actors.runtime.internal.telemetry.DeadLetterOffice;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A router: an actor that owns the routees of a pool or group and, for the strategies that need its
 * state, passes each message on to one or all of them; for the others it publishes the routees to
 * its {@link RoutedRef}, and senders route on their own threads.
 */
final class Router implements Receive<Object, Object> {
    /* design
     * The router is an ordinary actor (one ref for the user, supervised, watchable, stopped
     * like any other) whose persistent handler (`tryApply`) is this object itself.
     * - Routing on the sender's thread (round-robin, random, consistent hashing, broadcast; pools
     * without a resizer and groups): the router's ref is a RoutedRef, and each change of the
     * routees publishes a new immutable SenderRoutes on it (`setRoutees`); senders route with it,
     * so a message costs no hop through the router. The first routes are published by spawn,
     * before the ref is returned (SpawnTimeRoutes); the first turn adopts them (`adoptPublished`:
     * the routees, already watched, and the SenderRoutes object, whose round-robin position
     * senders have advanced). The routes are withdrawn only when the router's cell stops
     * (RoutedRef.cellStopped), not when it restarts (below).
     * - Through the router (smallest mailbox, balancing, resizing pools): routing a message costs
     * the router's one turn and one `tell`, with no allocation except for balancing. All fields are owned by the router's actor: they are read and written only in its
     * handler and body, so they need no synchronization (the actor's serializability).
     * - The routees are an array, replaced when they change (a routee stops, the pool replaces or
     * resizes); routing reads it without copying. Round-robin keeps an index; random draws from
     * ThreadLocalRandom; consistent hashing looks the key up on a HashRing rebuilt
     * on each change; broadcast tells every routee; smallest mailbox takes the first idle routee
     * (nothing queued and not running: `Cell.isActive()` is false, which is exact for a
     * local actor at the moment it is read), else the one with the fewest queued messages, a
     * running one counting one more, scanning from a rotating start so ties spread.
     * - Balancing: the router gives a routee a message only when the routee is not busy, and keeps
     * the others in its own queue (`backlog`) in arrival order. Each routee runs its
     * behavior through BalancingContext, whose handlers unwrap the router's
     * Routed and, once the routee's handler has taken it (returned or thrown),
     * tell the router Ready (one per incarnation, allocated once); the router then hands that
     * routee the oldest kept message, or marks it idle. So a message never waits behind a busy
     * routee while another is idle, at the price of one extra message per message (measured in
     * docs/benchmarks.md). Sharing one mailbox between routees, as Pekko's balancing dispatcher
     * does, would need a multi-consumer queue under several cells' activation words, against
     * the single-consumer invariant of every mailbox.
     * - Supervision of the routees: a pool spawns its routees as children with the pool's
     * strategy, so a routee's failure is decided by that strategy on the routee itself: restart
     * in place (same ref, mailbox kept), resume, stop, or escalate (the routee stops and the
     * router fails with its failure). The router watches every routee; a Terminated of a routee
     * removes it, and a pool replaces it while the strategy's restart budget (max restarts
     * within the window, counted over replacements) lasts; removal and replacement are one new
     * set of routes, so no sender routes with the pool one short in between.
     * - A pool keeps its size (PoolSize): every spawn after the router's start goes through
     * `filled`, which spawns what the pool lacks; if the routee factory throws, the router keeps
     * what it has and PoolSize warns, counts and arranges a retry (TopUp, on the router's own
     * timer). Rounds of top-up start at a routee's stop, at the router's restart (`pool`, after
     * `takeOver`), at a resizer's growth and at a resize check under pressure that finds the pool
     * short with no round open.
     * - Restart of the router itself (it fails: a routee escalated, a linked actor failed; and
     * its own supervisor restarts it): `install`
     * hands this object to the next incarnation (Cell.handOver), so the restart does not stop
     * the pool's children (Supervision), and the
     * new incarnation takes the membership over (`takeOver`): same routees, still running with
     * their state and mailboxes, still watched (watches and the router's mailbox outlive a
     * restart, so a Terminated queued meanwhile is handled by the new incarnation), the same
     * published routes (never withdrawn, so senders keep routing directly and one sender's order
     * per routee holds across the restart), balancing's busy flags and kept messages (the stop
     * hook dead-letters those only when the cell has stopped). The old incarnation runs no more
     * turns, so the new one owns all of it. Pekko classic's router actor likewise does not stop
     * its routees in preRestart (Akka's routing docs: the router's restart then restarts them,
     * so their state is reset; here they keep running, state and all).
     * - Nothing lost: with no routee left a message goes to dead letters with `NO_ROUTEES`;
     * balancing's kept messages go there too if the last routee leaves, and when the router
     * stops they are the router's own dead letters (its `onStop`).
     * - Resizing (pools with bounds): every RESIZE_EVERY routed messages the router looks
     * at the routees' mailboxes; all of them holding messages (or a non-empty backlog, when
     * balancing) adds a routee up to the upper bound; half or more idle retires one idle routee
     * down to the lower bound. An idle routee has an empty mailbox and only the router sends to
     * it through the pool, so retiring it loses nothing the router sent.
     */

    static final int RESIZE_EVERY = 16;

    private final ActorContext<Object> self;
    private final DeadLetterOffice deadLetters;
    private final Strategy strategy;
    private final Function<Object, ?> hashKey;
    private final int virtualNodes;
    // pool only
    private final Supplier<? extends Behavior<Object>> factory;
    private final SupervisorStrategy supervisor;
    private final int lower;
    private final int upper;
    /** Pool: its size, budget and retries (handed over through restarts); null for a group. */
    private PoolSize poolSize;

    private Routee[] routees = new Routee[0];
    private HashRing ring;
    private int next;
    private int sinceResize;
    private ArrayDeque<Pending> backlog;
    /** The router's ref when senders route on their threads, else null. */
    private final RoutedRef<?> direct;
    /** What senders route with now (when direct is not null). */
    private SenderRoutes published;

    private record Pending(Object message, ActorRef<?> sender) {
    }

    @SuppressWarnings("unchecked")
    private Router(ActorContext<?> self, Strategy strategy, Function<?, ?> hashKey, int virtualNodes,
            Supplier<? extends Behavior<?>> factory, SupervisorStrategy supervisor, int size, int lower, int upper) {
        this.self = (ActorContext<Object>) self;
        this.deadLetters = ((LocalRef<?>) self.self()).cell().weftSystem().deadLetterOffice();
        this.strategy = strategy;
        this.hashKey = (Function<Object, ?>) hashKey;
        this.virtualNodes = virtualNodes;
        this.factory = (Supplier<? extends Behavior<Object>>) (Supplier<?>) factory;
        this.supervisor = supervisor;
        this.lower = lower;
        this.upper = upper;
        this.poolSize = factory == null ? null : new PoolSize(supervisor, size, lower != upper);
        this.direct = self.self() instanceof RoutedRef<?> r ? r : null;
    }

    static <M> void pool(ActorContext<M> self, PoolRouter<M> spec) {
        Router r = new Router(self, spec.strategy(), spec.hashKey(), spec.virtualNodes(), spec.factory(), spec.supervisor(),
                spec.size(), spec.lowerBound(), spec.upperBound());
        boolean restarted = r.takeOver();
        if (!restarted && !r.adoptPublished()) {
            Routee[] initial = new Routee[spec.size()];
            for (int i = 0; i < initial.length; i++) {
                initial[i] = r.spawnRoutee(); // the factory's failure here is the router's start failing
            }
            r.setRoutees(initial);
        }
        r.install();
        if (restarted) {
            r.poolSize.newRound(r.routees.length); // the restart tops the pool up to its size
            r.topUp();
        }
    }

    static <M> void group(ActorContext<M> self, GroupRouter<M> spec) {
        Router r = new Router(self, spec.strategy(), spec.hashKey(), spec.virtualNodes(), null, null, 0, 0, 0);
        if (r.takeOver() || r.adoptPublished()) {
            r.install();
            return;
        }
        java.util.List<Routee> initial = new java.util.ArrayList<>();
        for (ActorRef<?> ref : spec.routees()) {
            // one that stopped before the router started is left out now: its Terminated would
            // reach the router only after messages sent to the router meanwhile
            if (!ref.isTerminated()) {
                r.self.watch(ref);
                initial.add(new Routee(ref));
            }
        }
        r.setRoutees(initial.toArray(new Routee[0]));
        r.install();
    }

    /**
     * A restarted router takes over the state its previous incarnation handed over (`install`):
     * the routees (a pool's are its children, which the restart kept running; all still watched),
     * the routes still published to senders, round-robin's position, the resizer's count and
     * target, the pool's replacement times and balancing's busy flags and kept messages.
     *
     * @return false if there is none (the router's first incarnation, or one that failed before
     *     it had routees)
     */
    private boolean takeOver() {
        if (!(cell().handedOver() instanceof Router before)) {
            return false;
        }
        routees = before.routees;
        ring = before.ring;
        next = before.next;
        sinceResize = before.sinceResize;
        poolSize = before.poolSize;
        backlog = before.backlog;
        published = before.published;
        return true;
    }

    /**
     * Takes over the routes spawn published (SpawnTimeRoutes): their routees, already watched, and
     * the Routes object itself, whose round-robin position senders have been advancing.
     *
     * @return false if there are none (not routing on the sender's thread, or the spawn-time step failed)
     */
    private boolean adoptPublished() {
        if (direct == null || !(direct.routes() instanceof SenderRoutes s)) {
            return false;
        }
        published = s;
        routees = s.routees();
        ring = s.ring();
        return true;
    }

    private Cell<?> cell() {
        return ((LocalRef<?>) self.self()).cell();
    }

    private void install() {
        if (strategy == Strategy.BALANCING) {
            if (backlog == null) {
                backlog = new ArrayDeque<>();
            }
            Cell<?> cell = cell();
            self.onStop(() -> {
                if (!cell.isTerminated()) {
                    return; // a restart: the next incarnation takes the kept messages over
                }
                for (Pending p : backlog) {
                    deadLetters.publish(p.message(), self.self(), p.sender(), DeadLetter.Reason.RECIPIENT_STOPPED);
                }
                backlog.clear();
            });
        }
        // the routes stay published through a restart; the stopped cell withdraws them (RoutedRef.cellStopped)
        cell().handOver(this);
        self.become(this);
    }

    private Routee spawnRoutee() {
        ActorRef<Object> router = self.self();
        Supplier<Behavior<Object>> start = strategy == Strategy.BALANCING
                ? () -> {
                    Behavior<Object> user = factory.get();
                    return ctx -> user.start(new BalancingContext<>(ctx, router));
                }
                : () -> factory.get();
        ActorRef<Object> ref = self.spawnChild(Props.defaults().withSupervisor(supervisor), start);
        self.watch(ref);
        return new Routee(ref);
    }

    private void setRoutees(Routee[] now) {
        routees = now;
        if (next >= now.length) {
            next = 0;
        }
        ring = ringOf(now, strategy, virtualNodes);
        if (direct != null) {
            published = new SenderRoutes(now, strategy, ring, hashKey, self.self(), deadLetters,
                    published == null ? 0 : published.position());
            direct.publish(published);
        }
    }

    /** @return the hash ring of these routees for consistent hashing, else null */
    static HashRing ringOf(Routee[] rs, Strategy strategy, int virtualNodes) {
        if (strategy != Strategy.CONSISTENT_HASHING) {
            return null;
        }
        String[] ids = new String[rs.length];
        for (int i = 0; i < rs.length; i++) {
            ids[i] = rs[i].ref.address();
        }
        return HashRing.of(ids, virtualNodes);
    }

    // ---- the handler

    @Override
    public Object tryApply(Channel<?> channel, Object message) {
        if (message instanceof Routee.Ready ready) {
            int i = indexOf(ready.routee());
            if (i >= 0) { // else it has left the router
                onReady(routees[i]);
            }
        } else if (message instanceof Terminated t && routeeIndex(t) >= 0) {
            onStopped(routeeIndex(t));
        } else if (message instanceof PoolSize.TopUp) {
            topUp();
        } else if (direct != null) { // told while no routes were published (a restart, a failed spawn-time step)
            published.route(message, self.sender());
        } else {
            route(message, self.sender());
        }
        return null;
    }

    private void route(Object message, ActorRef<?> sender) {
        Routee[] rs = routees;
        int n = rs.length;
        if (n == 0) {
            deadLetters.publish(message, self.self(), sender, DeadLetter.Reason.NO_ROUTEES);
            return;
        }
        switch (strategy) {
            case ROUND_ROBIN -> {
                int i = next;
                next = i + 1 == n ? 0 : i + 1;
                rs[i].ref.tell(message, sender);
            }
            case RANDOM -> rs[n == 1 ? 0 : ThreadLocalRandom.current().nextInt(n)].ref.tell(message, sender);
            case CONSISTENT_HASHING -> rs[ring.owner(hashKey.apply(message))].ref.tell(message, sender);
            case BROADCAST -> {
                for (Routee r : rs) {
                    r.ref.tell(message, sender);
                }
            }
            case SMALLEST_MAILBOX -> rs[smallest(rs)].ref.tell(message, sender);
            case BALANCING -> balance(rs, message, sender);
        }
        if (lower != upper && ++sinceResize >= RESIZE_EVERY) {
            sinceResize = 0;
            resize();
        }
    }

    private int smallest(Routee[] rs) {
        int n = rs.length;
        int start = next;
        next = start + 1 >= n ? 0 : start + 1;
        int best = start;
        long bestScore = Long.MAX_VALUE;
        for (int k = 0; k < n; k++) {
            int i = start + k < n ? start + k : start + k - n;
            Routee r = rs[i];
            if (r.idle()) {
                return i;
            }
            long score = r.depth() + (r.cell != null && r.cell.isActive() ? 1L : 0L);
            if (score < bestScore) {
                bestScore = score;
                best = i;
            }
        }
        return best;
    }

    private void balance(Routee[] rs, Object message, ActorRef<?> sender) {
        int n = rs.length;
        for (int k = 0; k < n; k++) {
            int i = next + k < n ? next + k : next + k - n;
            Routee r = rs[i];
            if (!r.busy) {
                next = i + 1 == n ? 0 : i + 1;
                give(r, message, sender);
                return;
            }
        }
        backlog.addLast(new Pending(message, sender));
    }

    private static void give(Routee r, Object message, ActorRef<?> sender) {
        r.busy = true;
        r.ref.tell(new Routee.Routed(message), sender);
    }

    private void onReady(Routee r) {
        Pending p = backlog.pollFirst();
        if (p == null) {
            r.busy = false;
        } else {
            give(r, p.message(), p.sender());
        }
    }

    private int routeeIndex(Terminated t) {
        return indexOf(t.actor());
    }

    private int indexOf(ActorRef<?> ref) {
        Routee[] rs = routees;
        for (int i = 0; i < rs.length; i++) {
            if (rs[i].ref.equals(ref)) {
                return i;
            }
        }
        return -1;
    }

    // ---- membership

    private void onStopped(int index) {
        Routee gone = routees[index];
        Routee[] rest = without(routees, index);
        if (factory != null && !self.system().isClosed()) { // a closing system stops the routees, and spawns none
            if (poolSize.replacementAllowed()) {
                poolSize.newRound(rest.length);
                rest = filled(rest);
            } else {
                poolSize.budgetUsedUp(self, rest.length, gone.ref);
            }
        }
        // one publication: a sender never routes with the pool short of the replacement (a
        // broadcast in between reached one routee fewer); without it if the factory threw
        setRoutees(rest);
        if (backlog != null) {
            // the message the gone routee held is its own dead letter; hand the kept ones to who is idle now
            drainBacklogToIdle();
            if (routees.length == 0) {
                for (Pending p; (p = backlog.pollFirst()) != null; ) {
                    deadLetters.publish(p.message(), self.self(), p.sender(), DeadLetter.Reason.NO_ROUTEES);
                }
            }
        }
    }

    /** Spawns the routees the open round owes and publishes them (a retry of its timer, its restart, a resizer's growth). */
    private void topUp() {
        Routee[] now = filled(routees);
        if (now != routees) {
            add(now);
        }
    }

    /**
     * {@code base} and the routees spawned that the open round owes (at most up to the pool's
     * target): a retry fills only what its round set out to spawn, not a routee that stopped past
     * the restart budget meanwhile. If the routee factory throws, what was spawned so far: the pool
     * runs short, and PoolSize arranges a retry. Anything else the factory throws (an Error, or a
     * checked exception thrown undeclared) is not retried: the routees spawned so far are
     * published, so none is a watched child that is not routed, and the router fails with it.
     */
    private Routee[] filled(Routee[] base) {
        Routee[] now = base;
        while (poolSize.owes(now.length)) {
            try {
                now = with(now, spawnRoutee());
                poolSize.spawned();
            } catch (RuntimeException e) {
                if (self.system().isClosed()) {
                    poolSize.roundOver(); // the closing system refused the spawn: no failure of the factory, no retry
                } else {
                    poolSize.factoryFailed(self, now.length, e);
                }
                return now;
            } catch (Throwable e) {
                setRoutees(now);
                throw e; // as it is, checked or not (the try declares none: a precise rethrow)
            }
        }
        poolSize.roundOver();
        return now;
    }

    private Routee remove(int index) {
        Routee gone = routees[index];
        setRoutees(without(routees, index));
        return gone;
    }

    private void add(Routee[] now) {
        setRoutees(now);
        if (backlog != null) {
            drainBacklogToIdle();
        }
    }

    private static Routee[] without(Routee[] rs, int index) {
        Routee[] now = new Routee[rs.length - 1];
        System.arraycopy(rs, 0, now, 0, index);
        System.arraycopy(rs, index + 1, now, index, rs.length - index - 1);
        return now;
    }

    private static Routee[] with(Routee[] rs, Routee r) {
        Routee[] now = Arrays.copyOf(rs, rs.length + 1);
        now[now.length - 1] = r;
        return now;
    }

    private void drainBacklogToIdle() {
        for (Routee r : routees) {
            if (backlog.isEmpty()) {
                return;
            }
            if (!r.busy) {
                Pending p = backlog.pollFirst();
                give(r, p.message(), p.sender());
            }
        }
    }

    private void resize() {
        Routee[] rs = routees;
        int n = rs.length;
        int pressed = 0;
        int idle = -1;
        int idleCount = 0;
        for (int i = 0; i < n; i++) {
            Routee r = rs[i];
            if (r.depth() > 0) {
                pressed++;
            } else if (r.idle() && !r.busy) {
                idleCount++;
                idle = i;
            }
        }
        boolean pressure = backlog != null ? !backlog.isEmpty() : pressed == n;
        if (pressure) {
            if (n >= poolSize.target && n < upper) { // grow
                poolSize.target = n + 1;
                poolSize.newRound(n);
                topUp();
            } else if (n < poolSize.target && !poolSize.retryPending() && poolSize.replacementAllowed()) {
                // short of its target with no round open (one gave up, or stops past the budget were
                // not replaced): a new round, counted against the restart budget as a replacement
                poolSize.newRound(n);
                topUp();
            }
        } else if (n > lower && idle >= 0 && idleCount * 2 >= n) {
            poolSize.target = n - 1;
            Routee r = remove(idle);
            self.unwatch(r.ref);
            self.system().stop(r.ref);
        }
    }

    /** @return the number of routees now (for tests through the router's state) */
    int size() {
        return routees.length;
    }

    // ---- Receive: the router takes every message

    @Override
    public boolean isDefinedAt(Channel<?> channel, Object message) {
        return true;
    }

    @Override
    public Object apply(Channel<?> channel, Object message) {
        return tryApply(channel, message);
    }

    @Override
    public boolean hasTimeoutCase() {
        return false;
    }

    @Override
    public Object onTimeout() {
        throw new ReceiveTimeoutException("router " + self.self() + " has no timeout case");
    }

    @Override
    public Receive<Object, Object> orElse(Receive<? super Object, ? extends Object> other) {
        throw new UnsupportedOperationException("a router's handler is not combined with others");
    }
}
