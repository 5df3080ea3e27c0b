package io.weft.actors.cluster.internal.sharding;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Props;
import io.weft.actors.cluster.Cluster;
import io.weft.actors.cluster.ClusterSharding;
import io.weft.actors.cluster.Member;
import io.weft.actors.cluster.MemberEvent;
import io.weft.actors.cluster.MemberStatus;
import io.weft.actors.cluster.RegistryEvent;
import io.weft.actors.cluster.ShardingSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** The {@link ClusterSharding} of one member: a region actor per registered type. */
public final class Sharding implements ClusterSharding {

    /* design
     * init(type) spawns the type's Region (actor name "weft-shard-<type>"), registers it in the
     * cluster registry under "weft.shard:<type>" so other members' regions find it, and
     * subscribes to member events and registry events, turning them into Topology and Known
     * messages for the region. Member events are read on the cluster's event thread, where
     * cluster.members() is already the new view and cluster.status() answers at once, so the
     * hosts (UP members of the view) and the view the region gets follow the events' order.
     *
     * entityRef returns an EntityRef, which tells the local region Local(id, message) with the
     * caller's sender; nothing else is shared between threads except the regions' counters.
     *
     * drain (called by ClusterCore.leave between announcing LEAVING and leaving the view) sends
     * every region a Leave request and waits for all, bounded.
     */

    private static final String PREFIX = "weft.shard:";

    private record Type(ActorRef<Object> region, Region.Counters counters, List<AutoCloseable> subscriptions) {
    }

    private final Cluster cluster;
    private final ActorSystem system;
    private final Map<String, Type> types = new ConcurrentHashMap<>();

    /**
     * The sharding of a member.
     *
     * @param cluster the member's cluster
     * @param system its system
     */
    public Sharding(Cluster cluster, ActorSystem system) {
        this.cluster = cluster;
        this.system = system;
    }

    static String checkType(String type) {
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("sharding: the entity type \"" + type + "\" is null or blank; give a non-blank type name");
        }
        for (int i = 0; i < type.length(); i++) {
            char c = type.charAt(i);
            if (Character.isISOControl(c) || c == '/' || c == '#') {
                throw new IllegalArgumentException("sharding: the entity type \"" + type.replaceAll("\\p{Cntrl}", "?")
                        + "\" contains '" + (Character.isISOControl(c) ? "a control character" : String.valueOf(c)) + "' at index " + i
                        + "; type names carry no control characters, '/' or '#'");
            }
        }
        return type;
    }

    @Override
    public <M> void init(String type, Function<? super String, ? extends Behavior<M>> factory, ShardingSettings settings) {
        checkType(type);
        if (factory == null || settings == null) {
            throw new IllegalArgumentException("sharding: init(\"" + type + "\", ...) needs a factory and settings, got "
                    + (factory == null ? "a null factory" : "null settings") + "; pass ShardingSettings.defaults() for the defaults");
        }
        if (cluster.status(cluster.self()) != MemberStatus.UP) {
            throw new IllegalStateException("sharding: member " + cluster.self() + " is " + cluster.status(cluster.self())
                    + ", not UP; init(\"" + type + "\") needs a member in the cluster");
        }
        Region.Counters counters = new Region.Counters();
        Type t = new Type(null, counters, new CopyOnWriteArrayList<>());
        if (types.putIfAbsent(type, t) != null) {
            throw new IllegalStateException("sharding: the entity type \"" + type + "\" is already registered on member " + cluster.self()
                    + "; call init once per type and member");
        }
        Member me = cluster.self();
        ActorRef<Object> region;
        try {
            region = system.spawn(Props.named("weft-shard-" + type), () -> Region.behavior(type, settings, factory, me, counters));
        } catch (RuntimeException e) {
            types.remove(type);
            throw e;
        }
        types.put(type, new Type(region, counters, t.subscriptions()));
        t.subscriptions().add(cluster.subscribe((MemberEvent e) -> topology(region, e)));
        t.subscriptions().add(cluster.registry().subscribe((RegistryEvent e) -> {
            if (e.kind() == RegistryEvent.Kind.ADDED && e.name().equals(PREFIX + type) && !e.owner().equals(me)) {
                region.tell(new Region.Known(e.owner(), e.address()));
            }
        }));
        cluster.registry().register(PREFIX + type, region);
    }

    /** Tells the region the membership after an event (on the cluster's event thread). */
    private void topology(ActorRef<Object> region, MemberEvent e) {
        List<Member> view = cluster.members();
        List<Member> hosts = new ArrayList<>(view.size());
        for (Member m : view) {
            if (cluster.status(m) == MemberStatus.UP) {
                hosts.add(m);
            }
        }
        Member gone = e.status() == MemberStatus.DOWN || e.status() == MemberStatus.REMOVED ? e.member() : null;
        if (gone != null && gone.equals(cluster.self())) {
            gone = null;
        }
        region.tell(new Region.Topology(List.copyOf(hosts), view, gone));
    }

    private Type type(String type, String what) {
        checkType(type);
        Type t = types.get(type);
        if (t == null || t.region() == null) {
            throw new IllegalStateException("sharding: the entity type \"" + type + "\" is not registered on member " + cluster.self()
                    + " (" + what + "); call cluster.sharding().init(\"" + type + "\", factory, settings) on every member first");
        }
        return t;
    }

    @Override
    public <M> ActorRef<M> entityRef(String type, String entityId) {
        checkType(type);
        if (entityId == null || entityId.isBlank()) {
            throw new IllegalArgumentException("sharding: the entity id \"" + entityId + "\" of type \"" + type
                    + "\" is null or blank; give a non-blank id");
        }
        Type t = type(type, "entityRef(\"" + type + "\", \"" + entityId + "\")");
        return new EntityRef<>(t.region(), type, entityId);
    }

    @Override
    public long bufferDropped(String type) {
        Type t = types.get(checkType(type));
        return t == null ? 0 : t.counters().dropped().get();
    }

    @Override
    public long lostWithNode(String type) {
        Type t = types.get(checkType(type));
        return t == null ? 0 : t.counters().lost().get();
    }

    @Override
    public int localEntityCount(String type) {
        Type t = types.get(checkType(type));
        return t == null ? 0 : t.counters().entities().get();
    }

    /**
     * Hands every shard of this member over before it leaves: asks each region and waits until
     * all have handed everything over and had it confirmed, or the bound passes.
     *
     * @param bound the longest wait
     * @return true if every region finished in time
     */
    public boolean drain(Duration bound) {
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Type t : types.values()) {
            if (t.region() != null && !t.region().isTerminated()) {
                CompletableFuture<Void> done = new CompletableFuture<>();
                t.region().tell(new Region.Leave(done));
                all.add(done);
            }
        }
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(bound.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        }
    }

    /** Ends the subscriptions and stops the regions (their entities stop with them). */
    public void close() {
        for (Type t : types.values()) {
            for (AutoCloseable s : t.subscriptions()) {
                try {
                    s.close();
                } catch (Exception e) {
                    throw new IllegalStateException("sharding of " + cluster.self() + ": closing a subscription failed", e);
                }
            }
            if (t.region() != null) {
                system.stop(t.region());
            }
        }
    }
}
