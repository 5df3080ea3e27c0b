package io.weft.actors.remote.internal.remoting;

import io.weft.actors.ActorRef;
import io.weft.actors.Terminated;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/** Local watchers of one Association's remote actors: who watches which address, and telling them Terminated. */
final class PeerWatches {

    /* design
     * `watchers` maps a remote actor's address to the local actors watching it. The first watcher
     * of an address sends WATCH to the peer, the last one to leave sends UNWATCH (both system
     * messages, see SystemMessages); TERMINATED from the peer, a quarantine or a handshake timeout
     * removes the address and tells each of its watchers Terminated once.
     *
     * Watchers that stop: every local watcher is also watched by the WatchHelper's actor; when it
     * stops, watcherStopped removes it from every target, and a target left without watchers is
     * unwatched on the peer.
     *
     * Invariants: a set in `watchers` is never empty (computeIfPresent removes an emptied one), so
     * "first" and "last" are decided inside the map's compute for that address; a watch that races
     * the quarantine is answered by the watch itself (it checks `quarantined` after adding).
     */

    private final Association association;
    private final RemotingCore core;
    private final Map<String, Set<ActorRef<?>>> watchers = new ConcurrentHashMap<>();

    PeerWatches(Association association) {
        this.association = association;
        this.core = association.core;
    }

    void watch(RemoteRefImpl target, ActorRef<?> watcher) {
        if (target.isTerminated()) {
            tellTerminated(watcher, new Terminated(target, core.gone(association)));
            return;
        }
        if (association.gated()) {
            tellTerminated(watcher, new Terminated(target, association.handshakeFailure()));
            return;
        }
        core.watchedLocally(watcher);
        boolean[] first = new boolean[1];
        watchers.compute(target.address(), (k, set) -> {
            Set<ActorRef<?>> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            first[0] = s.isEmpty();
            s.add(watcher);
            return s;
        });
        if (first[0]) {
            association.sendSystem(Frames.WATCH, target.address(), core.localAddress());
            core.ensureLink(association);
        }
        if (association.isQuarantined()) {
            terminateAll(() -> core.gone(association));
        }
    }

    void unwatch(RemoteRefImpl target, ActorRef<?> watcher) {
        boolean[] last = new boolean[1];
        watchers.computeIfPresent(target.address(), (k, s) -> {
            s.remove(watcher);
            last[0] = s.isEmpty();
            return s.isEmpty() ? null : s;
        });
        if (last[0]) {
            association.sendSystem(Frames.UNWATCH, target.address(), core.localAddress());
        }
    }

    /** A local watcher stopped: its watches go, and a target it was the last watcher of is unwatched on the peer. */
    void watcherStopped(ActorRef<?> watcher) {
        for (String target : List.copyOf(watchers.keySet())) {
            boolean[] last = new boolean[1];
            watchers.computeIfPresent(target, (k, s) -> {
                last[0] = s.remove(watcher) && s.isEmpty();
                return s.isEmpty() ? null : s;
            });
            if (last[0] && !association.isQuarantined()) {
                association.sendSystem(Frames.UNWATCH, target, core.localAddress());
            }
        }
    }

    /** The peer says its actor stopped; {@code ref} is the kept ref to it, or null. */
    void remoteTerminated(String target, RemoteRefImpl ref) {
        Set<ActorRef<?>> ws = watchers.remove(target);
        if (ws != null) {
            ActorRef<?> r = ref != null ? ref : association.ref(Address.parse(target), target);
            for (ActorRef<?> w : ws) {
                tellTerminated(w, new Terminated(r, null));
            }
        }
    }

    /** Removes every watch and tells each watcher Terminated with the cause {@code cause} gives. */
    void terminateAll(Supplier<Throwable> cause) {
        for (String target : List.copyOf(watchers.keySet())) {
            Set<ActorRef<?>> ws = watchers.remove(target);
            if (ws != null) {
                RemoteRefImpl r = association.ref(Address.parse(target), target);
                for (ActorRef<?> w : ws) {
                    tellTerminated(w, new Terminated(r, cause.get()));
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void tellTerminated(ActorRef<?> watcher, Terminated t) {
        ((ActorRef<Object>) watcher).tell(t);
    }
}
