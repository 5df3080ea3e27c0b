package io.weft.actors.cluster.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.cluster.Cluster;
import io.weft.actors.cluster.ClusterSettings;
import io.weft.actors.cluster.Member;
import io.weft.actors.cluster.MemberEvent;
import io.weft.actors.cluster.MemberStatus;
import io.weft.actors.cluster.SplitBrain;
import io.weft.actors.remote.Remoting;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.ObjectMessage;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.stack.Protocol;
import org.jgroups.util.ExtendedUUID;

/** The {@link Cluster} on a JGroups channel. */
public final class ClusterCore implements Cluster, Receiver {

    /* design
     * Each member's JGroups address is an ExtendedUUID carrying the key "weft" with the text
     * system@host:port#incarnation of its remoting, so every view maps to Weft members without a
     * separate exchange and without a window in which a member is in the view but unnamed.
     *
     * JGroups calls viewAccepted and receive on its own threads; both only enqueue onto `events`,
     * a single thread that owns all membership state (members, statuses, leaving, stable) and
     * delivers the events to subscribers in order. Subscribing also runs on it, so the replay of
     * the current state and the later changes never interleave.
     *
     * Split brain: `stable` is the last membership that lasted `stableAfter` after a member left
     * (or the first view, or a view that only added members to the stable one), less the members
     * that announced a graceful leave. A view is checked
     * against it by KeepMajority before anything else; a node that must down itself publishes DOWN
     * for itself, leaves the channel and publishes REMOVED for itself. Comparing with the stable
     * membership, not the previous view, keeps a partition seen as several successive views (one
     * member excluded, then another) from keeping the minority alive.
     *
     * A member that leaves the view is quarantined in the remoting (Remoting.quarantine), so its
     * incarnation can never send or be reached again; a quarantined member reappearing in a merge
     * view is ignored.
     *
     * The registry (Registry) shares the channel and the event thread: its entry sets arrive as
     * String messages marked "weft.reg\n", and it is told each view after `members()` changes,
     * so its state and the membership are always changed in one order. Singletons (Singletons)
     * send nothing of their own: they place instances from the view and publish them through the
     * registry under reserved names. Sharded entities (sharding.Sharding) run a region actor per
     * type, fed with the member events; leave() lets them hand their shards over (bounded by
     * SHARDING_DRAIN) after announcing LEAVING and before leaving the view, so the other members
     * take the shards over while the leaver's remoting is still reachable (it is quarantined at
     * its removal).
     */

    private static final System.Logger LOG = System.getLogger(ClusterCore.class.getName());
    static final String KEY = "weft";
    private static final String LEAVING_MARK = "weft.leaving";
    private static final java.time.Duration SHARDING_DRAIN = java.time.Duration.ofSeconds(10);

    private final ActorSystem system;
    private final Remoting remoting;
    private final ClusterSettings settings;
    private final Member self;
    private final JChannel channel;
    private final ScheduledExecutorService events;
    private final List<Consumer<? super MemberEvent>> subscribers = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> up = new CompletableFuture<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Thread eventThread;

    // owned by the events thread
    private final Map<Address, Member> view = new LinkedHashMap<>();
    private final Map<Member, MemberStatus> status = new HashMap<>();
    private final Set<Member> stable = new HashSet<>();
    private final Set<Member> removed = new HashSet<>();
    private ScheduledFuture<?> promote;
    private volatile List<Member> snapshot = List.of();
    private volatile MemberStatus selfStatus = MemberStatus.JOINING;
    private final Registry registry;
    private final Singletons singletons;
    private final io.weft.actors.cluster.internal.sharding.Sharding sharding;

    private ClusterCore(ActorSystem system, Remoting remoting, ClusterSettings settings, Consumer<List<Protocol>> stackHook) throws Exception {
        this.system = system;
        this.remoting = remoting;
        this.settings = settings;
        this.self = new Member(system.name(), remoting.address().getHostString(), advertisedPort(remoting), remoting.incarnation());
        this.events = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "weft-cluster-" + system.name());
            t.setDaemon(true);
            eventThread = t;
            return t;
        });
        status.put(self, MemberStatus.JOINING);
        List<Protocol> protocols = Stack.protocols(settings);
        if (stackHook != null) {
            stackHook.accept(protocols);
        }
        this.channel = new JChannel(protocols);
        byte[] me = self.toString().getBytes(StandardCharsets.UTF_8);
        channel.addAddressGenerator(() -> ExtendedUUID.randomUUID(self.toString()).put(KEY, me));
        channel.name(self.toString());
        channel.setReceiver(this);
        this.registry = new Registry(this, system, remoting, self);
        this.singletons = new Singletons(this, system, remoting);
        this.sharding = new io.weft.actors.cluster.internal.sharding.Sharding(this, system);
    }

    /** The remoting's port as other members reach it (an advertised port that differs from the bound one is not supported). */
    private static int advertisedPort(Remoting remoting) {
        return remoting.address().getPort();
    }

    /**
     * Starts a member.
     *
     * @param system the system
     * @param remoting its remoting
     * @param settings the settings
     * @param stackHook called with the protocol list before the channel is built (tests insert
     *     protocols, such as DISCARD, through it); may be null
     * @return the running member, UP
     * @throws Exception if JGroups cannot start or the node is not up within a minute
     */
    public static ClusterCore start(ActorSystem system, Remoting remoting, ClusterSettings settings, Consumer<List<Protocol>> stackHook)
            throws Exception {
        ClusterCore c = new ClusterCore(system, remoting, settings, stackHook);
        try {
            c.channel.connect(settings.clusterName());
            c.up.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            c.channel.close();
            c.events.shutdownNow();
            c.registry.close();
            throw e;
        }
        return c;
    }

    /**
     * The JGroups channel, for tests.
     *
     * @return the channel
     */
    public JChannel channel() {
        return channel;
    }

    // ------------------------------------------------------------------ JGroups callbacks

    @Override
    public void viewAccepted(View v) {
        List<Address> members = new ArrayList<>(v.getMembers());
        run(() -> onView(members, v.toString()));
    }

    @Override
    public void receive(Message msg) {
        Address from = msg.getSrc();
        Object body = msg.getObject();
        if (LEAVING_MARK.equals(body)) {
            run(() -> onLeaving(from));
        } else if (body instanceof String text && text.startsWith(Registry.MARK)) {
            Member owner = memberOf(from);
            run(() -> registry.onState(owner, owner != null && removed.contains(owner), text));
        }
    }

    /** Runs on the event thread, later; dropped once the cluster is closed. */
    void run(Runnable r) {
        try {
            events.execute(() -> {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "cluster member " + self + ": handling a membership change failed", e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed
        }
    }

    // ------------------------------------------------------------------ state (events thread)

    private static Member memberOf(Address a) {
        if (a instanceof ExtendedUUID u) {
            byte[] b = u.get(KEY);
            if (b != null) {
                try {
                    return Member.parse(new String(b, StandardCharsets.UTF_8));
                } catch (IllegalArgumentException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private void onView(List<Address> addresses, String text) {
        if (selfStatus == MemberStatus.DOWN || selfStatus == MemberStatus.REMOVED) {
            return;
        }
        Map<Address, Member> next = new LinkedHashMap<>();
        for (Address a : addresses) {
            Member m = memberOf(a);
            if (m == null) {
                LOG.log(System.Logger.Level.WARNING, "cluster member " + self + ": view member " + a
                        + " carries no Weft address (not a Weft node, or another version); ignored");
            } else if (removed.contains(m)) {
                LOG.log(System.Logger.Level.WARNING, "cluster member " + self + ": removed member " + m
                        + " is back in a view (a merge); it stays removed and quarantined");
            } else {
                next.put(a, m);
            }
        }
        // a member that announced its leave is not a lost half: it no longer counts in the stable membership
        stable.removeIf(m -> status.get(m) == MemberStatus.LEAVING && !next.containsValue(m));
        if (settings.splitBrain() == SplitBrain.KEEP_MAJORITY && KeepMajority.mustDown(stable, next.values())) {
            downSelf("keep-majority: the view " + text + " holds " + next.size() + " of the " + stable.size()
                    + " members of the last stable membership " + stable);
            return;
        }
        List<Member> left = new ArrayList<>();
        for (Map.Entry<Address, Member> e : view.entrySet()) {
            if (!next.containsKey(e.getKey())) {
                left.add(e.getValue());
            }
        }
        boolean anyGone = !left.isEmpty();
        // the snapshot changes before the events, so a subscriber that reads members() sees the new view
        view.clear();
        view.putAll(next);
        snapshot = List.copyOf(next.values());
        for (Member m : left) {
            if (status.get(m) == MemberStatus.LEAVING) {
                gone(m, "it left gracefully");
            } else {
                publish(m, MemberStatus.DOWN, "it left the view without a graceful leave (crash, kill or partition): " + text);
                gone(m, "it was down");
            }
        }
        for (Member m : next.values()) {
            if (!status.containsKey(m) || status.get(m) == MemberStatus.JOINING) {
                publish(m, MemberStatus.UP, "in the view " + text);
            }
        }
        registry.onView(next.values(), "its member left the view: " + text);
        boolean growth = !anyGone && next.values().containsAll(stable);
        if (stable.isEmpty() || growth) {
            stable.clear();
            stable.addAll(next.values());
        } else {
            if (promote != null) {
                promote.cancel(false);
            }
            List<Member> candidate = List.copyOf(next.values());
            promote = events.schedule(() -> {
                if (snapshot.equals(candidate) && selfStatus == MemberStatus.UP) {
                    stable.clear();
                    stable.addAll(candidate);
                }
            }, settings.stableAfter().toMillis(), TimeUnit.MILLISECONDS);
        }
        up.complete(null);
    }

    /** Quarantines first, so a subscriber told REMOVED already finds the incarnation quarantined. */
    private void gone(Member m, String why) {
        removed.add(m);
        if (remoting.quarantine(m.host(), m.port(), m.incarnation(), "removed from the cluster: " + why)) {
            LOG.log(System.Logger.Level.INFO, "cluster member " + self + ": quarantined removed member " + m);
        }
        publish(m, MemberStatus.REMOVED, why);
        status.remove(m);
    }

    private void onLeaving(Address from) {
        Member m = view.get(from);
        if (m != null && status.get(m) == MemberStatus.UP) {
            publish(m, MemberStatus.LEAVING, "it announced a graceful leave");
        }
    }

    private void downSelf(String why) {
        LOG.log(System.Logger.Level.WARNING, "cluster member " + self + " downs itself: " + why);
        publish(self, MemberStatus.DOWN, why);
        for (Member m : view.values()) {
            if (!m.equals(self)) {
                publish(m, MemberStatus.REMOVED, "this node downed itself; the member is no longer seen");
                status.remove(m);
            }
        }
        view.clear();
        snapshot = List.of();
        registry.onView(List.of(), "this member downed itself");
        channel.disconnect();
        publish(self, MemberStatus.REMOVED, "this node downed itself and left the group");
        up.complete(null);
        if (settings.terminateOnDown()) {
            Thread.ofPlatform().name("weft-cluster-terminate-" + system.name()).daemon().start(system::close);
        }
    }

    private void publish(Member m, MemberStatus s, String reason) {
        status.put(m, s);
        if (m.equals(self)) {
            selfStatus = s;
        }
        MemberEvent e = new MemberEvent(m, s, reason);
        for (Consumer<? super MemberEvent> c : subscribers) {
            deliver(c, e);
        }
    }

    private void deliver(Consumer<? super MemberEvent> c, MemberEvent e) {
        try {
            c.accept(e);
        } catch (RuntimeException ex) {
            LOG.log(System.Logger.Level.WARNING, "cluster member " + self + ": a subscriber failed on " + e, ex);
        }
    }

    // ------------------------------------------------------------------ API

    @Override
    public Member self() {
        return self;
    }

    @Override
    public List<Member> members() {
        return snapshot;
    }

    @Override
    public MemberStatus status(Member member) {
        if (member.equals(self)) {
            return selfStatus;
        }
        return snapshot.contains(member) ? onEvents(() -> status.getOrDefault(member, MemberStatus.UP)) : MemberStatus.REMOVED;
    }

    /** Runs on the event thread and waits; called on the event thread itself (from a subscriber), runs at once. */
    <T> T onEvents(java.util.concurrent.Callable<T> c) {
        if (Thread.currentThread() == eventThread) {
            try {
                return c.call();
            } catch (Exception e) {
                throw e instanceof RuntimeException r ? r : new IllegalStateException("cluster member " + self + ": " + e.getMessage(), e);
            }
        }
        try {
            return events.submit(c).get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("cluster member " + self + ": " + e.getCause(), e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException("cluster member " + self + ": its event thread did not answer (closed or stuck)", e);
        }
    }

    @Override
    public AutoCloseable subscribe(Consumer<? super MemberEvent> subscriber) {
        onEvents(() -> {
            for (Map.Entry<Member, MemberStatus> e : status.entrySet()) {
                deliver(subscriber, new MemberEvent(e.getKey(), e.getValue(), "current state"));
            }
            subscribers.add(subscriber);
            return null;
        });
        return () -> subscribers.remove(subscriber);
    }

    @Override
    public AutoCloseable subscribe(ActorRef<? super MemberEvent> subscriber) {
        Consumer<MemberEvent>[] box = newBox();
        box[0] = e -> {
            if (subscriber.isTerminated()) {
                subscribers.remove(box[0]);
            } else {
                subscriber.tell(e);
            }
        };
        return subscribe(box[0]);
    }

    @SuppressWarnings("unchecked")
    private static Consumer<MemberEvent>[] newBox() {
        return (Consumer<MemberEvent>[]) new Consumer<?>[1];
    }

    /** Whether this member is UP (in the view, not leaving). */
    boolean isUp() {
        return selfStatus == MemberStatus.UP;
    }

    /** Multicasts a text to the group; a failure is logged (the others then miss it until the next change). */
    void multicast(String text, String what) {
        try {
            channel.send(new ObjectMessage(null, text));
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "cluster member " + self + ": multicasting " + what + " failed", e);
        }
    }

    @Override
    public io.weft.actors.cluster.ClusterRegistry registry() {
        return registry;
    }

    @Override
    public <M> ActorRef<M> singleton(String name, io.weft.actors.Props props,
            java.util.function.Supplier<? extends io.weft.actors.Behavior<M>> factory, io.weft.actors.cluster.SingletonSettings settings) {
        return singletons.singleton(name, props, factory, settings);
    }

    @Override
    public <M> ActorRef<M> singletonProxy(String name, io.weft.actors.cluster.SingletonSettings settings) {
        return singletons.proxy(name, settings);
    }

    @Override
    public long singletonDropped(String name) {
        return singletons.dropped(name);
    }

    @Override
    public io.weft.actors.cluster.ClusterSharding sharding() {
        return sharding;
    }

    @Override
    public void leave() {
        if (selfStatus != MemberStatus.UP) {
            return;
        }
        onEvents(() -> {
            publish(self, MemberStatus.LEAVING, "leave() was called");
            return null;
        });
        try {
            channel.send(new ObjectMessage(null, LEAVING_MARK));
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "cluster member " + self + ": announcing the leave failed; the others will see it DOWN", e);
        }
        String left = "left the cluster";
        if (!sharding.drain(SHARDING_DRAIN)) {
            left = "left the cluster; sharded entities were not all handed over within " + SHARDING_DRAIN
                    + " (messages not confirmed are counted as lost by their senders)";
            LOG.log(System.Logger.Level.WARNING, "cluster member " + self + ": " + left);
        }
        String reason = left;
        channel.disconnect();
        onEvents(() -> {
            for (Member m : view.values()) {
                if (!m.equals(self)) {
                    status.remove(m);
                }
            }
            view.clear();
            snapshot = List.of();
            registry.onView(List.of(), "this member left the cluster");
            publish(self, MemberStatus.REMOVED, reason);
            return null;
        });
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            leave();
        } finally {
            channel.close();
            registry.close();
            singletons.close();
            sharding.close();
            events.shutdown();
            try {
                events.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
