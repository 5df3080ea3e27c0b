package io.weft.actors.cluster.internal.sharding;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import io.weft.actors.cluster.Member;
import io.weft.actors.cluster.ShardingSettings;
import io.weft.actors.cluster.internal.sharding.Shard.Entity;
import io.weft.actors.cluster.internal.sharding.Shard.Pending;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/** The region of one entity type on one member: routes messages, hosts this member's shards, hands them over. */
final class Region {

    /* design
     * One region actor per type and member; all state below is owned by it.
     *
     * Placement: the region learns the membership as Topology messages (the members UP and not
     * leaving = hosts, the members in the view, the member gone if any), told in the order of
     * the cluster's events. JGroups delivers views and the LEAVING multicast in one order on
     * every member, so every region computes the same owners (ShardPlacement) after the same
     * change; in between, regions may briefly disagree.
     *
     * Hand-off (pull, after Pekko's ShardRegion hand-off): a region that becomes a shard's owner
     * claims it from every other member in the view and keeps its messages until each has
     * answered with a hand-off (or left the view). A region answers a claim only when it does
     * not own the shard itself and none of the shard's entities is alive there: a region that
     * loses a shard sends STOP through each entity's mailbox (every message delivered before it
     * is handled first) and keeps later messages; when the last entity has stopped it answers
     * the claim with everything it kept. Invariant: an owner activates a shard only after every
     * other member in its view has reported no live entity of it, and a member that reported
     * so claims (and waits) before running it again; so at most one member runs an entity, also
     * while views disagree. Claiming from every member, not only the previous owner, makes this
     * hold whatever the regions' histories (a region started late has none).
     *
     * Routing a message for shard s: owned and active -> its entity; owned, claiming -> kept;
     * not owned -> kept if the shard still has entities or kept messages here (behind them, in
     * order), or if the owner is the member it came from (the two regions disagree; the one
     * behind will claim or be claimed from once it catches up), or after MAX_HOPS forwards;
     * or while the owner's region ref is unknown (its region claims the shard from every member
 * when it starts); else forwarded to the owner's region. Kept messages are bounded by bufferSize per shard
     * (and per stopping entity); beyond it they are dead-lettered (MAILBOX_OVERFLOW) and counted.
     *
     * Accounting (Ledger): a message told to another region counts as sent until that region
     * confirms it (handled by its entity, forwarded, handed over or dropped); acks go out every
     * TICK. A member that goes DOWN or is removed turns its unconfirmed count into lostWithNode.
     *
     * Graceful leave: the leaving member sees itself LEAVING, owns no shard any more and stops its
     * entities; it completes the Leave request once it holds nothing, every message it sent is
     * confirmed, every confirmation it owes has arrived (a leaving member's acks are answered),
     * and every other region's view marker excludes it (after which none routes to it).
     * ClusterCore waits for that (bounded) before it leaves the JGroups view.
     *
     * Region refs (Links): learned from the registry (each region registers under
     * "weft.shard:<type>") and from the reply-to of every region message; a region learning a
     * ref from the registry says hello, so the other learns its ref without waiting for the
     * registry.
     *
     * Passivation: every idle check, an active entity without a message for passivateAfter gets
     * STOP; messages for it meanwhile wait in its `pending` and start its next incarnation.
     */

    static final Duration TICK = Duration.ofMillis(100);
    private static final long CLAIM_RETRY_NANOS = Duration.ofSeconds(1).toNanos();
    private static final long CLAIM_WARN_NANOS = Duration.ofSeconds(10).toNanos();
    private static final int MAX_HOPS = 8;
    private static final System.Logger LOG = System.getLogger(Region.class.getName());

    /** A message from an entity ref on this member. */
    record Local(String entityId, Object message) {
    }

    /** The membership, as seen after a cluster event. */
    record Topology(List<Member> hosts, List<Member> inView, Member gone) {
    }

    /** A region ref learned from the registry. */
    record Known(Member member, String address) {
    }

    /** Completes when this member has handed everything over (graceful leave). */
    record Leave(CompletableFuture<Void> done) {
    }

    /** The counters ClusterSharding reads from any thread. */
    record Counters(AtomicLong dropped, AtomicLong lost, AtomicInteger entities) {
        Counters() {
            this(new AtomicLong(), new AtomicLong(), new AtomicInteger());
        }
    }

    private static final Object TICK_MSG = "weft.shard.tick";
    private static final Object IDLE_MSG = "weft.shard.idle";

    private final ActorContext<Object> ctx;
    private final String type;
    private final ShardingSettings settings;
    private final Function<? super String, ? extends Behavior<?>> factory;
    private final Member me;
    private final Counters counters;
    private final Ledger ledger;
    private final Shard[] shards;
    private final Links links;
    private final String meText;
    private final Entities entities;
    private final Map<Member, List<Member>> theirHosts = new HashMap<>();
    private final boolean[] routedHere;
    private final java.util.Set<Member> warned = new java.util.HashSet<>();
    private List<Member> hosts = List.of();
    private List<Member> inView = List.of();
    private boolean hasTopology;
    private CompletableFuture<Void> leave;

    private Region(ActorContext<Object> ctx, String type, ShardingSettings settings, Function<? super String, ? extends Behavior<?>> factory,
            Member me, Counters counters) {
        this.ctx = ctx;
        this.type = type;
        this.settings = settings;
        this.factory = factory;
        this.me = me;
        this.counters = counters;
        this.ledger = new Ledger(counters.lost());
        this.links = new Links(ledger);
        this.meText = me.toString();
        this.entities = new Entities(ctx, factory, me, ledger, counters, settings.bufferSize());
        this.shards = new Shard[settings.shards()];
        this.routedHere = new boolean[settings.shards()];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new Shard(i);
        }
    }

    /** The region's behavior. */
    static Behavior<Object> behavior(String type, ShardingSettings settings, Function<? super String, ? extends Behavior<?>> factory,
            Member me, Counters counters) {
        return self -> {
            Region r = new Region(self, type, settings, factory, me, counters);
            self.timers().startFixedDelay(TICK_MSG, TICK_MSG, TICK);
            if (!settings.passivateAfter().isZero()) {
                long quarter = Math.max(50, Math.min(5_000, settings.passivateAfter().toMillis() / 4));
                self.timers().startFixedDelay(IDLE_MSG, IDLE_MSG, Duration.ofMillis(quarter));
            }
            self.become(Receive.handler()
                    .match(Local.class, l -> r.route(new Wire.Item(l.entityId(), l.message(), self.sender()), me, 0))
                    .match(List.class, l -> r.onWire(l))
                    .match(Topology.class, r::onTopology)
                    .match(Known.class, r::onKnown)
                    .match(Terminated.class, t -> r.onTerminated(t.actor()))
                    .match(Leave.class, l -> {
                        r.leave = l.done();
                        r.ledger.reAcknowledge();
                        r.checkLeave();
                    })
                    .matchAny(m -> {
                        if (m == TICK_MSG) {
                            r.onTick();
                        } else if (m == IDLE_MSG) {
                            r.onIdleCheck();
                        }
                    })
                    .build());
        };
    }

    // ------------------------------------------------------------------ routing

    private void route(Wire.Item item, Member source, int hops) {
        Shard s = shards[ShardPlacement.shardOf(item.entityId(), shards.length)];
        if (s.owned) {
            if (s.active) {
                entities.deliver(s, new Pending(item, source));
            } else {
                entities.keep(s.buffer, new Pending(item, source));
            }
            return;
        }
        Member owner = s.owner;
        if (owner == null || !s.empty() || routedHere[s.id] || owner.equals(source) || hops >= MAX_HOPS || !links.knows(owner)) {
            entities.keep(s.buffer, new Pending(item, source));
        } else {
            forward(owner, item, hops + 1);
            ledger.settle(source, me);
        }
    }

    private void forward(Member to, Wire.Item item, int hops) {
        send(to, Wire.msg(meText, type, item.entityId(), hops, item.message()), item.sender(), 1, new Pending(item, me));
    }

    private void onTerminated(ActorRef<?> ref) {
        Entity e = entities.terminated(ref, shards);
        if (e == null) {
            return;
        }
        Shard s = shards[e.shard];
        if (!e.pending.isEmpty()) {
            if (s.active) {
                for (Pending p : e.pending) {
                    entities.deliver(s, p);
                }
            } else {
                List<Pending> back = new ArrayList<>(e.pending);
                for (int i = back.size() - 1; i >= 0; i--) {
                    s.buffer.addFirst(back.get(i)); // older than what the shard kept since
                }
            }
        }
        progress(s);
        checkLeave();
    }

    // ------------------------------------------------------------------ membership and hand-off

    private void onTopology(Topology t) {
        if (t.gone() != null) {
            gone(t.gone());
        }
        if (hasTopology && t.gone() == null && t.hosts().equals(hosts) && t.inView().equals(inView)) {
            return;
        }
        hasTopology = true;
        hosts = t.hosts();
        inView = t.inView();
        Map<Member, List<Integer>> claims = new LinkedHashMap<>();
        for (Shard s : shards) {
            s.owner = ShardPlacement.owner(type, s.id, hosts);
            boolean now = me.equals(s.owner);
            if (now && !s.owned) {
                s.owned = true;
                s.active = false;
                s.awaiting.clear();
                for (Member m : inView) {
                    if (!m.equals(me)) {
                        s.awaiting.add(m);
                        claims.computeIfAbsent(m, x -> new ArrayList<>()).add(s.id);
                    }
                }
                s.claimedAt = System.nanoTime();
                s.claimingSince = s.claimedAt;
            } else if (!now && s.owned) {
                s.owned = false;
                s.active = false;
                s.awaiting.clear();
                while (!s.handedIn.isEmpty()) {
                    s.buffer.addFirst(s.handedIn.pollLast());
                }
                for (Entity e : s.entities.values()) {
                    entities.stop(e);
                }
            }
            s.awaiting.retainAll(inView);
            s.claimants.retainAll(inView);
        }
        recomputeRoutedHere();
        for (Shard s : shards) {
            progress(s);
        }
        for (Member m : inView) {
            if (!m.equals(me)) {
                send(m, Wire.view(me, type, hosts), ctx.self(), 0, null);
            }
        }
        for (Map.Entry<Member, List<Integer>> c : claims.entrySet()) {
            if (links.knows(c.getKey())) {
                send(c.getKey(), Wire.claim(me, type, c.getValue()), ctx.self(), 0, null);
            }
        }
        checkLeave();
    }

    /** A member went DOWN or was removed: its unconfirmed messages are lost; what waited for it is routed again. */
    private void gone(Member m) {
        ledger.gone(m);
        if (theirHosts.remove(m) != null) {
            recomputeRoutedHere();
        }
        for (Pending p : links.forget(m)) {
            route(p.item(), me, 0);
        }
    }

    /** Activates a claimed shard or answers claims, whichever its state allows. */
    private void progress(Shard s) {
        if (s.owned && !s.active && s.awaiting.isEmpty() && s.entities.isEmpty()) {
            s.active = true;
            List<Pending> all = new ArrayList<>(s.handedIn);
            all.addAll(s.buffer);
            s.handedIn.clear();
            s.buffer.clear();
            for (Pending p : all) {
                entities.deliver(s, p);
            }
        } else if (!s.owned && s.entities.isEmpty() && !routedHere[s.id] && !s.claimants.isEmpty()) {
            Member target = s.claimants.contains(s.owner) ? s.owner : s.claimants.iterator().next();
            for (Member c : s.claimants) {
                List<Wire.Item> items = new ArrayList<>();
                if (c.equals(target)) {
                    for (Pending p : s.buffer) {
                        items.add(p.item());
                        ledger.settle(p.source(), me);
                    }
                    s.buffer.clear();
                }
                send(c, Wire.handOff(me, type, s.id, items), ctx.self(), items.size(), null);
            }
            s.claimants.clear();
        }
    }

    private void onWire(List<?> list) {
        Object m = Wire.decode(list, type, links::member);
        if (m == null) {
            LOG.log(System.Logger.Level.WARNING, "sharding region \"" + type + "\" on " + me + ": ignored a malformed region message");
            return;
        }
        ActorRef<?> sender = ctx.sender();
        switch (m) {
            case Wire.Msg msg -> route(new Wire.Item(msg.entityId(), msg.message(), sender), msg.from(), msg.hops());
            case Wire.Claim c -> {
                learn(c.from(), sender);
                for (int shard : c.shards()) {
                    if (shard >= 0 && shard < shards.length && inView.contains(c.from())) {
                        shards[shard].claimants.add(c.from());
                        progress(shards[shard]);
                    }
                }
            }
            case Wire.HandOff h -> {
                learn(h.from(), sender);
                onHandOff(h);
            }
            case Wire.Ack a -> {
                learn(a.from(), sender);
                ledger.acked(a.from(), a.settled());
                if (a.leaving()) {
                    send(a.from(), Wire.ackSeen(me, type, a.settled()), ctx.self(), 0, null);
                }
                checkLeave();
            }
            case Wire.AckSeen k -> {
                learn(k.from(), sender);
                ledger.ackSeen(k.from(), k.settled());
                checkLeave();
            }
            case Wire.Hello h -> learn(h.from(), sender);
            case Wire.View v -> {
                learn(v.from(), sender);
                theirHosts.put(v.from(), v.hosts()); // also from a member this region does not see in the view yet
                recomputeRoutedHere();
                for (Shard s : shards) {
                    progress(s);
                }
                checkLeave();
            }
            default -> throw new IllegalStateException("unexpected region message " + m);
        }
    }

    private void onHandOff(Wire.HandOff h) {
        if (h.shard() < 0 || h.shard() >= shards.length) {
            return;
        }
        Shard s = shards[h.shard()];
        for (Wire.Item i : h.items()) {
            Pending p = new Pending(i, h.from());
            if (s.owned && s.active) {
                entities.deliver(s, p);
            } else if (s.owned) {
                s.handedIn.add(p);
            } else {
                s.buffer.add(p); // already accepted by the cluster: kept even beyond the bound
            }
        }
        s.awaiting.remove(h.from());
        progress(s);
        checkLeave();
    }

    /**
     * Marks the shards some other member still routes here (by the hosts in its last view
     * marker) although this member does not own them: their messages are kept here, and claims
     * on them wait, until every member has switched, so messages that took the old path are
     * handed over before the new owner delivers those that took the new one.
     */
    private void recomputeRoutedHere() {
        java.util.Arrays.fill(routedHere, false);
        for (Map.Entry<Member, List<Member>> t : theirHosts.entrySet()) {
            if (!t.getKey().equals(me) && t.getValue().contains(me)) {
                for (Shard s : shards) {
                    if (!me.equals(s.owner) && !routedHere[s.id] && me.equals(ShardPlacement.owner(type, s.id, t.getValue()))) {
                        routedHere[s.id] = true;
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ region refs and sending

    private void onKnown(Known k) {
        if (!k.member().equals(me) && !links.knows(k.member()) && inView.contains(k.member())) {
            ActorRef<Object> ref = ctx.system().resolve(k.address());
            learn(k.member(), ref);
            ref.tell(Wire.hello(me, type), ctx.self());
        }
    }

    private void learn(Member m, ActorRef<?> ref) {
        if (m.equals(me) || !links.learn(m, ref)) {
            return;
        }
        List<Integer> claim = new ArrayList<>();
        for (Shard s : shards) {
            if (s.owned && s.awaiting.contains(m)) {
                claim.add(s.id);
            } else if (m.equals(s.owner) && !s.buffer.isEmpty() && s.entities.isEmpty() && s.claimants.isEmpty() && !routedHere[s.id]) {
                flush(s); // kept while the owner's ref was unknown
            }
        }
        if (!claim.isEmpty()) {
            send(m, Wire.claim(me, type, claim), ctx.self(), 0, null);
        }
    }

    /**
     * Hands what a shard kept here to its owner unasked, as a hand-off (not as single messages):
     * an owner still claiming the shard delivers hand-offs before the messages it kept itself.
     * Only called when no entity of the shard lives here and no other member routes it here.
     */
    private void flush(Shard s) {
        List<Wire.Item> items = new ArrayList<>(s.buffer.size());
        for (Pending p : s.buffer) {
            items.add(p.item());
            ledger.settle(p.source(), me);
        }
        s.buffer.clear();
        send(s.owner, Wire.handOff(me, type, s.id, items), ctx.self(), items.size(), null);
    }

    private void send(Member to, List<Object> wire, ActorRef<?> sender, int count, Pending reroute) {
        links.send(to, wire, sender, count, reroute);
    }

    // ------------------------------------------------------------------ timers

    private void onTick() {
        entities.settleHandled();
        for (Map.Entry<Member, Long> a : ledger.acksDue(links::knows).entrySet()) {
            send(a.getKey(), Wire.ack(me, type, a.getValue(), leave != null), ctx.self(), 0, null);
        }
        long now = System.nanoTime();
        Map<Member, List<Integer>> retry = new LinkedHashMap<>();
        for (Shard s : shards) {
            if (s.owned && !s.active && !s.awaiting.isEmpty() && now - s.claimedAt > CLAIM_RETRY_NANOS) {
                s.claimedAt = now;
                for (Member m : s.awaiting) {
                    if (links.knows(m)) {
                        retry.computeIfAbsent(m, x -> new ArrayList<>()).add(s.id);
                    }
                    if (now - s.claimingSince > CLAIM_WARN_NANOS && warned.add(m)) {
                        LOG.log(System.Logger.Level.WARNING, "sharding region \"" + type + "\" on " + me + ": member " + m
                                + (links.knows(m) ? " has not answered" : " has no known region of this type to answer")
                                + " the claim of shard " + s.id + " for " + Duration.ofNanos(now - s.claimingSince).toSeconds()
                                + " s; its messages are kept meanwhile. Call cluster.sharding().init(\"" + type
                                + "\", ...) on every member of the cluster");
                    }
                }
            }
        }
        for (Map.Entry<Member, List<Integer>> c : retry.entrySet()) {
            send(c.getKey(), Wire.claim(me, type, c.getValue()), ctx.self(), 0, null);
        }
        checkLeave();
    }

    private void onIdleCheck() {
        entities.passivateIdle(shards, settings.passivateAfter().toNanos());
    }

    // ------------------------------------------------------------------ graceful leave

    private void checkLeave() {
        if (leave == null || leave.isDone() || hosts.contains(me)) {
            return;
        }
        List<Member> others = new ArrayList<>(inView);
        others.remove(me);
        if (!entities.none()) {
            return;
        }
        boolean allSeen = true;
        for (Member m : others) {
            List<Member> theirs = theirHosts.get(m);
            allSeen &= theirs != null && !theirs.contains(me);
        }
        for (Shard s : shards) {
            if (!s.buffer.isEmpty() && (others.isEmpty() || allSeen) && s.owner != null && s.entities.isEmpty()) {
                flush(s);
            } else if (!s.buffer.isEmpty() && others.isEmpty()) {
                for (Pending p : s.buffer) {
                    entities.drop(p, DeadLetter.Reason.RECIPIENT_STOPPED);
                }
                s.buffer.clear();
            }
            if (!s.empty()) {
                return;
            }
        }
        if (allSeen && links.nothingWaiting() && ledger.allAcksSeen() && ledger.allConfirmed(others)) {
            leave.complete(null);
        }
    }
}
