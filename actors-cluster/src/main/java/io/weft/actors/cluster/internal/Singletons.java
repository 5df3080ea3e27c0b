package io.weft.actors.cluster.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.cluster.Member;
import io.weft.actors.cluster.MemberStatus;
import io.weft.actors.cluster.RegistryEvent;
import io.weft.actors.cluster.SingletonSettings;
import io.weft.actors.remote.Remoting;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** The cluster singletons of one member: a manager per hosted name and a proxy per name. */
final class Singletons {

    /* design
     * Placement needs no messages of its own: every member sees the same JGroups view, and the
     * first member of the view (the coordinator, the oldest) that is not LEAVING hosts the
     * instance. A manager (one per singleton() call) re-evaluates that on every member event, on
     * the cluster's event thread: when this member becomes the host it spawns the instance and
     * registers it in the cluster registry under "weft.singleton:<name>"; when it stops being the
     * host (it leaves, or an older member is in the view) it stops the instance, and the registry
     * drops the entry (the actor stopped) or every member drops it at the view change (the member
     * left).
     *
     * The proxy is an actor of the local system. It learns instances from registry events for
     * that reserved name (ADDED/REMOVED, told to it from the event thread) and keeps them by
     * owner; its target is the instance whose owner comes first in the current view
     * (cluster.members(), a volatile snapshot that changes before the events are published). On
     * every user message it first checks that the target's owner is still in the view; if not,
     * the target is dropped (likewise when a member event says its owner is
     * LEAVING, DOWN or REMOVED: that instance is stopping), so a message sent after a member's removal is visible never goes to
     * the removed member's instance. Without a target, messages are kept in a FIFO buffer bounded
     * by SingletonSettings.bufferSize; beyond it a message goes to dead letters (MAILBOX_OVERFLOW)
     * and is counted. When a target appears, the buffer is flushed in order before any later
     * message; each message keeps its sender (tell(message, sender)).
     *
     * Invariant: the proxy's state (known instances, target, buffer) is touched only by the proxy
     * actor; the managers' state only on the event thread.
     */

    static final String PREFIX = "weft.singleton:";

    /** An instance registered under the reserved name, as seen in a registry event. */
    private record Added(Member owner, String address) {
    }

    /** An instance no longer registered. */
    private record Removed(String address) {
    }

    /** A member that is leaving or gone: its instance is stopping or stopped. */
    private record Leaving(Member member) {
    }

    /** A message kept while no instance is known, with its sender. */
    private record Pending(Object message, ActorRef<?> sender) {
    }

    private final ClusterCore core;
    private final ActorSystem system;
    private final Remoting remoting;
    private final Map<String, ActorRef<Object>> proxies = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> dropped = new ConcurrentHashMap<>();
    private final Map<String, Object> managed = new ConcurrentHashMap<>();
    private final List<AutoCloseable> subscriptions = new java.util.concurrent.CopyOnWriteArrayList<>();

    Singletons(ClusterCore core, ActorSystem system, Remoting remoting) {
        this.core = core;
        this.system = system;
        this.remoting = remoting;
    }

    private static String checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("cluster singleton: the name \"" + name + "\" is null or blank; give a non-blank name");
        }
        return Registry.checkName(PREFIX + name).substring(PREFIX.length());
    }

    /** Starts a manager for the name on this member and returns the proxy. */
    <M> ActorRef<M> singleton(String name, Props props, Supplier<? extends Behavior<M>> factory, SingletonSettings settings) {
        checkName(name);
        if (props == null || factory == null || settings == null) {
            throw new IllegalArgumentException("cluster singleton \"" + name + "\": props, factory and settings must not be null");
        }
        if (managed.putIfAbsent(name, Boolean.TRUE) != null) {
            throw new IllegalStateException("cluster singleton \"" + name + "\": already managed on member " + core.self()
                    + "; call singleton() once per name and member, and share the returned proxy");
        }
        ActorRef<M> proxy = proxy(name, settings);
        ActorRef<?>[] instance = {null};
        Runnable evaluate = () -> {
            boolean host = isHost();
            if (host && instance[0] == null) {
                ActorRef<M> started = system.spawn(props, factory);
                instance[0] = started;
                try {
                    core.registry().register(PREFIX + name, started);
                } catch (RuntimeException e) {
                    system.stop(started);
                    instance[0] = null;
                }
            } else if (!host && instance[0] != null) {
                system.stop(instance[0]);
                instance[0] = null;
            }
        };
        subscriptions.add(core.subscribe(e -> evaluate.run()));
        core.onEvents(() -> {
            evaluate.run();
            return null;
        });
        return proxy;
    }

    /** Whether this member is the first of the view that is not leaving (event thread). */
    private boolean isHost() {
        if (!core.isUp()) {
            return false;
        }
        for (Member m : core.members()) {
            MemberStatus s = core.status(m);
            if (s == MemberStatus.UP || s == MemberStatus.JOINING) {
                return m.equals(core.self());
            }
        }
        return false;
    }

    /** The proxy for the name on this member, made on first use. */
    @SuppressWarnings("unchecked")
    <M> ActorRef<M> proxy(String name, SingletonSettings settings) {
        checkName(name);
        if (settings == null) {
            throw new IllegalArgumentException("cluster singleton \"" + name + "\": settings must not be null");
        }
        return (ActorRef<M>) proxies.computeIfAbsent(name, n -> startProxy(n, settings));
    }

    long dropped(String name) {
        AtomicLong d = dropped.get(checkName(name));
        return d == null ? 0 : d.get();
    }

    private ActorRef<Object> startProxy(String name, SingletonSettings settings) {
        AtomicLong drops = dropped.computeIfAbsent(name, n -> new AtomicLong());
        String key = PREFIX + name;
        int bound = settings.bufferSize();
        ActorRef<Object> proxy = system.spawn(Props.named("weft-singleton-proxy-" + name), ctx -> {
            Map<String, Member> known = new HashMap<>();
            java.util.Set<Member> leaving = new java.util.HashSet<>();
            ArrayDeque<Pending> buffer = new ArrayDeque<>();
            Object[] target = {null, null}; // owner, ref
            Runnable choose = () -> {
                List<Member> view = core.members();
                if (target[0] != null && (!view.contains((Member) target[0]) || leaving.contains((Member) target[0]))) {
                    target[0] = null;
                    target[1] = null;
                }
                Member best = null;
                String bestAddress = null;
                for (Map.Entry<String, Member> k : known.entrySet()) {
                    int i = view.indexOf(k.getValue());
                    if (i >= 0 && !leaving.contains(k.getValue()) && (best == null || i < view.indexOf(best))) {
                        best = k.getValue();
                        bestAddress = k.getKey();
                    }
                }
                if (best == null) {
                    target[0] = null;
                    target[1] = null;
                } else if (!best.equals(target[0]) || !bestAddress.equals(((ActorRef<?>) target[1]).address())) {
                    target[0] = best;
                    target[1] = remoting.resolve(bestAddress);
                }
                if (target[1] != null) {
                    @SuppressWarnings("unchecked")
                    ActorRef<Object> to = (ActorRef<Object>) target[1];
                    while (!buffer.isEmpty()) {
                        Pending p = buffer.poll();
                        send(to, p.message(), p.sender());
                    }
                }
            };
            ctx.become(Receive.handler()
                    .match(Added.class, a -> {
                        known.put(a.address(), a.owner());
                        choose.run();
                    })
                    .match(Removed.class, r -> {
                        known.remove(r.address());
                        choose.run();
                    })
                    .match(Leaving.class, l -> {
                        leaving.add(l.member());
                        choose.run();
                    })
                    .match(Object.class, m -> {
                        if (target[0] == null || !core.members().contains((Member) target[0])) {
                            choose.run();
                        }
                        if (target[1] != null) {
                            @SuppressWarnings("unchecked")
                            ActorRef<Object> to = (ActorRef<Object>) target[1];
                            send(to, m, ctx.sender());
                        } else if (buffer.size() < bound) {
                            buffer.add(new Pending(m, ctx.sender()));
                        } else {
                            drops.incrementAndGet();
                            system.deadLetters().post(new DeadLetter(m, ctx.self(), ctx.sender(), DeadLetter.Reason.MAILBOX_OVERFLOW));
                        }
                    })
                    .build());
        });
        subscriptions.add(core.registry().subscribe((RegistryEvent e) -> {
            if (e.name().equals(key) && !proxy.isTerminated()) {
                proxy.tell(e.kind() == RegistryEvent.Kind.ADDED ? new Added(e.owner(), e.address()) : new Removed(e.address()));
            }
        }));
        subscriptions.add(core.subscribe(e -> {
            if (e.status() != MemberStatus.UP && e.status() != MemberStatus.JOINING && !proxy.isTerminated()) {
                proxy.tell(new Leaving(e.member()));
            }
        }));
        return proxy;
    }

    private static void send(ActorRef<Object> to, Object message, ActorRef<?> sender) {
        if (sender == null) {
            to.tell(message);
        } else {
            to.tell(message, sender);
        }
    }

    /** Ends the subscriptions and stops the proxies (the instances stop when their member leaves). */
    void close() {
        for (AutoCloseable s : subscriptions) {
            try {
                s.close();
            } catch (Exception e) {
                throw new IllegalStateException("cluster singletons of " + core.self() + ": closing a subscription failed", e);
            }
        }
        for (ActorRef<Object> p : proxies.values()) {
            system.stop(p);
        }
    }
}
