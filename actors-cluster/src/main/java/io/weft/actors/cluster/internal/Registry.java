package io.weft.actors.cluster.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import io.weft.actors.cluster.ClusterRegistry;
import io.weft.actors.cluster.Member;
import io.weft.actors.cluster.RegistryEvent;
import io.weft.actors.remote.Remoting;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** The {@link ClusterRegistry} of one member, replicated over the cluster's JGroups channel. */
final class Registry implements ClusterRegistry {

    /* design
     * Each member owns the entries of its own actors (name, remote address) and is the only one
     * that changes them. On every change it multicasts its WHOLE entry set with a sequence number
     * that grows by one per change ("weft.reg\n<seq>\n<name>\t<address>\n..."); a receiver
     * replaces that owner's set when the number is higher than the last it applied. Whole sets
     * make the replication order-insensitive: a lost race between a delta and a state transfer
     * cannot leave a stale entry, at the price of messages that grow with one member's entries.
     * NAKACK2 delivers one sender's multicasts in order anyway.
     *
     * A joining member gets the state by the same message: every member that sees new members in
     * a view multicasts its set again after processing that view (so the joiner, already in the
     * view, receives it); a multicast sent after a view is delivered to all members of that view.
     * On a view change, the entries of owners no longer in the view are dropped (REMOVED events);
     * a removed owner's later messages are ignored, as it is quarantined for good.
     *
     * All state is owned by the cluster's event thread (ClusterCore.run / onEvents): the view
     * changes, the received sets, local registrations and the watcher's Terminated are serialized
     * there. `snapshot` is an immutable copy for lookups from any thread.
     *
     * A local actor that stops is unregistered: a small actor of the local system watches every
     * registered local actor and reports its Terminated to the event thread.
     */

    private static final System.Logger LOG = System.getLogger(Registry.class.getName());
    static final String MARK = "weft.reg\n";

    /** One entry as replicated: the name and the actor's remote address. */
    private record Entry(String name, String address) {
    }

    /** One entry as looked up: its owner, for ordering, and a local ref when the owner is this member. */
    private record Known(String name, Member owner, String address, ActorRef<?> local) {
    }

    private record Watch(ActorRef<?> ref, boolean on) {
    }

    private final ClusterCore core;
    private final ActorSystem system;
    private final Remoting remoting;
    private final Member self;
    private final ActorRef<Object> watcher;
    private final List<Consumer<? super RegistryEvent>> subscribers = new CopyOnWriteArrayList<>();

    // owned by the event thread
    private final LinkedHashMap<Entry, ActorRef<?>> mine = new LinkedHashMap<>();
    private long mySeq;
    private final Map<Member, Long> seqs = new HashMap<>();
    private final Map<Member, List<Entry>> others = new TreeMap<>();
    private final Set<Member> inView = new LinkedHashSet<>();
    private volatile Map<String, List<Known>> snapshot = Map.of();

    Registry(ClusterCore core, ActorSystem system, Remoting remoting, Member self) {
        this.core = core;
        this.system = system;
        this.remoting = remoting;
        this.self = self;
        this.watcher = system.spawn(Props.named("weft-cluster-registry"), ctx -> ctx.become(Receive.handler()
                .match(Watch.class, w -> {
                    if (w.on()) {
                        ctx.watch(w.ref());
                    } else {
                        ctx.unwatch(w.ref());
                    }
                })
                .match(Terminated.class, t -> core.run(() -> stopped(t.actor())))
                .build()));
    }

    /** Stops the watcher actor. */
    void close() {
        system.stop(watcher);
    }

    // ------------------------------------------------------------------ API (any thread)

    static String checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("cluster registry: the name \"" + name + "\" is null or blank; give a non-blank name");
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                throw new IllegalArgumentException("cluster registry: the name \"" + name.replaceAll("\\p{Cntrl}", "?")
                        + "\" contains a control character at index " + i + "; names carry no tabs, newlines or other control characters");
            }
        }
        return name;
    }

    @Override
    public void register(String name, ActorRef<?> ref) {
        checkName(name);
        if (ref == null) {
            throw new IllegalArgumentException("cluster registry: the ref registered under \"" + name + "\" is null");
        }
        String address = remoting.addressOf(ref);
        if (!address.startsWith(self.address() + "/")) {
            throw new IllegalArgumentException("cluster registry: cannot register " + address + " under \"" + name
                    + "\" on member " + self + ": it is not an actor of this member; register it on the member that owns it");
        }
        if (ref.id() < 0) {
            throw new IllegalArgumentException("cluster registry: cannot register " + address + " under \"" + name
                    + "\": it is a temporary ref (an ask's reply ref); register an actor");
        }
        if (ref.isTerminated()) {
            throw new IllegalArgumentException("cluster registry: cannot register " + address + " under \"" + name
                    + "\": the actor has stopped");
        }
        core.onEvents(() -> {
            if (!core.isUp()) {
                throw new IllegalStateException("cluster registry: member " + self + " is no longer in the cluster (left or downed); "
                        + "cannot register \"" + name + "\"");
            }
            Entry e = new Entry(name, address);
            if (mine.putIfAbsent(e, ref) == null) {
                watcher.tell(new Watch(ref, true));
                changed("registered");
                publish(RegistryEvent.Kind.ADDED, e, self, "registered");
            }
            return null;
        });
        // the watch may have come after the actor stopped: Terminated then arrives and unregisters it
    }

    @Override
    public boolean unregister(String name, ActorRef<?> ref) {
        checkName(name);
        if (ref == null) {
            throw new IllegalArgumentException("cluster registry: the ref to unregister from \"" + name + "\" is null");
        }
        String address = remoting.addressOf(ref);
        return core.onEvents(() -> {
            Entry e = new Entry(name, address);
            if (mine.remove(e) == null) {
                return false;
            }
            if (!mine.containsValue(ref)) {
                watcher.tell(new Watch(ref, false));
            }
            changed("unregistered");
            publish(RegistryEvent.Kind.REMOVED, e, self, "unregistered");
            return true;
        });
    }

    @Override
    public List<ActorRef<Object>> lookup(String name) {
        List<Known> known = snapshot.getOrDefault(checkName(name), List.of());
        List<ActorRef<Object>> refs = new ArrayList<>(known.size());
        for (Known k : known) {
            refs.add(ref(k));
        }
        return refs;
    }

    /** The actors under a name owned by other members (remote refs), in lookup order; for the topics' forwarding. */
    List<ActorRef<Object>> lookupOthers(String name) {
        List<Known> known = snapshot.getOrDefault(name, List.of());
        List<ActorRef<Object>> refs = new ArrayList<>(known.size());
        for (Known k : known) {
            if (k.local() == null) {
                refs.add(remoting.resolve(k.address()));
            }
        }
        return refs;
    }

    @Override
    public Optional<ActorRef<Object>> lookupOne(String name) {
        List<Known> known = snapshot.getOrDefault(checkName(name), List.of());
        for (Known k : known) {
            if (k.local() != null) {
                return Optional.of(ref(k));
            }
        }
        return known.isEmpty() ? Optional.empty() : Optional.of(ref(known.get(0)));
    }

    @SuppressWarnings("unchecked")
    private ActorRef<Object> ref(Known k) {
        return k.local() != null ? (ActorRef<Object>) k.local() : remoting.resolve(k.address());
    }

    @Override
    public AutoCloseable subscribe(Consumer<? super RegistryEvent> subscriber) {
        core.onEvents(() -> {
            for (Entry e : mine.keySet()) {
                deliver(subscriber, new RegistryEvent(RegistryEvent.Kind.ADDED, e.name(), e.address(), self, "current state"));
            }
            for (Map.Entry<Member, List<Entry>> o : others.entrySet()) {
                for (Entry e : o.getValue()) {
                    deliver(subscriber, new RegistryEvent(RegistryEvent.Kind.ADDED, e.name(), e.address(), o.getKey(), "current state"));
                }
            }
            subscribers.add(subscriber);
            return null;
        });
        return () -> subscribers.remove(subscriber);
    }

    // ------------------------------------------------------------------ event thread

    /** A local actor stopped: drop all its entries. */
    private void stopped(ActorRef<?> actor) {
        List<Entry> gone = new ArrayList<>();
        mine.entrySet().removeIf(e -> {
            if (e.getValue().equals(actor)) {
                gone.add(e.getKey());
                return true;
            }
            return false;
        });
        if (!gone.isEmpty()) {
            changed("the actor stopped");
            for (Entry e : gone) {
                publish(RegistryEvent.Kind.REMOVED, e, self, "the actor stopped");
            }
        }
    }

    /** After a local change: a new sequence number, the whole set multicast, the snapshot rebuilt. */
    private void changed(String why) {
        mySeq++;
        broadcast(why);
        rebuild();
    }

    private void broadcast(String why) {
        StringBuilder sb = new StringBuilder(MARK).append(mySeq).append('\n');
        for (Entry e : mine.keySet()) {
            sb.append(e.name()).append('\t').append(e.address()).append('\n');
        }
        core.multicast(sb.toString(), "registry entries (" + why + ")");
    }

    /**
     * A view change: entries of owners no longer in it are dropped; if members joined, this
     * member's set is multicast again for them.
     *
     * @param members the new view, empty once this member left or downed itself
     * @param why the reason given to REMOVED events
     */
    void onView(Collection<Member> members, String why) {
        boolean joined = false;
        for (Member m : members) {
            if (!inView.contains(m) && !m.equals(self)) {
                joined = true;
            }
        }
        inView.clear();
        inView.addAll(members);
        Map<Member, List<Entry>> dropped = new TreeMap<>();
        for (var it = others.entrySet().iterator(); it.hasNext();) {
            Map.Entry<Member, List<Entry>> o = it.next();
            if (!inView.contains(o.getKey())) {
                it.remove();
                seqs.remove(o.getKey());
                dropped.put(o.getKey(), o.getValue());
            }
        }
        if (!dropped.isEmpty()) {
            rebuild(); // before the events, so a subscriber that looks up sees the entries gone
            for (Map.Entry<Member, List<Entry>> o : dropped.entrySet()) {
                for (Entry e : o.getValue()) {
                    publish(RegistryEvent.Kind.REMOVED, e, o.getKey(), why);
                }
            }
        }
        if (joined && !members.isEmpty()) {
            broadcast("members joined");
        }
    }

    /**
     * A set multicast by an owner.
     *
     * @param owner the sender, from its JGroups address
     * @param removed whether the owner was removed from the cluster (its message is then ignored)
     * @param text the message
     */
    void onState(Member owner, boolean removed, String text) {
        if (owner == null || owner.equals(self) || removed) {
            return;
        }
        String[] lines = text.substring(MARK.length()).split("\n");
        long seq;
        try {
            seq = Long.parseLong(lines[0]);
        } catch (NumberFormatException e) {
            LOG.log(System.Logger.Level.WARNING, "cluster registry at " + self + ": malformed entries from " + owner + " ignored");
            return;
        }
        if (seq <= seqs.getOrDefault(owner, 0L)) {
            return;
        }
        seqs.put(owner, seq);
        List<Entry> next = new ArrayList<>();
        String prefix = owner.address() + "/";
        for (int i = 1; i < lines.length; i++) {
            int tab = lines[i].indexOf('\t');
            if (tab <= 0 || !lines[i].startsWith(prefix, tab + 1)) {
                LOG.log(System.Logger.Level.WARNING, "cluster registry at " + self + ": entry \"" + lines[i] + "\" from " + owner
                        + " is malformed or names an actor of another member; ignored");
                continue;
            }
            next.add(new Entry(lines[i].substring(0, tab), lines[i].substring(tab + 1)));
        }
        List<Entry> old = others.getOrDefault(owner, List.of());
        others.put(owner, next);
        rebuild();
        for (Entry e : old) {
            if (!next.contains(e)) {
                publish(RegistryEvent.Kind.REMOVED, e, owner, "unregistered on its member (or the actor stopped)");
            }
        }
        for (Entry e : next) {
            if (!old.contains(e)) {
                publish(RegistryEvent.Kind.ADDED, e, owner, "registered on its member");
            }
        }
    }

    /** Rebuilds the lookup snapshot: per name, the entries by owner in Member order, each owner's in registration order. */
    private void rebuild() {
        TreeMap<Member, List<Known>> byOwner = new TreeMap<>();
        List<Known> local = new ArrayList<>();
        for (Map.Entry<Entry, ActorRef<?>> e : mine.entrySet()) {
            local.add(new Known(e.getKey().name(), self, e.getKey().address(), e.getValue()));
        }
        byOwner.put(self, local);
        for (Map.Entry<Member, List<Entry>> o : others.entrySet()) {
            List<Known> ks = new ArrayList<>();
            for (Entry e : o.getValue()) {
                ks.add(new Known(e.name(), o.getKey(), e.address(), null));
            }
            byOwner.put(o.getKey(), ks);
        }
        Map<String, List<Known>> m = new HashMap<>();
        for (List<Known> ks : byOwner.values()) {
            for (Known k : ks) {
                m.computeIfAbsent(k.name(), n -> new ArrayList<>()).add(k);
            }
        }
        m.replaceAll((n, l) -> List.copyOf(l));
        snapshot = Map.copyOf(m);
    }

    private void publish(RegistryEvent.Kind kind, Entry e, Member owner, String reason) {
        RegistryEvent ev = new RegistryEvent(kind, e.name(), e.address(), owner, reason);
        for (Consumer<? super RegistryEvent> c : subscribers) {
            deliver(c, ev);
        }
    }

    private void deliver(Consumer<? super RegistryEvent> c, RegistryEvent e) {
        try {
            c.accept(e);
        } catch (RuntimeException ex) {
            LOG.log(System.Logger.Level.WARNING, "cluster registry at " + self + ": a subscriber failed on " + e, ex);
        }
    }
}
