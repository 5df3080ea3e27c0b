package io.weft.actors.remote.internal.remoting;

import io.weft.actors.ActorRef;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** Watches local actors on behalf of remote watchers, through an internal actor of the system. */
final class WatchHelper {

    /* design
     * One unnamed internal actor owns the table local target -> (association,
     * watcher address). It watches each target once; on Terminated it sends TERMINATED to every
     * association that asked (through the reliable control lane). Its state is touched only in its
     * handlers, so it needs no lock. A target already gone is answered at once.
     *
     * It also watches every local actor that watches a remote actor (`locals`): when one stops,
     * RemotingCore.watcherStopped removes it from every association, so the peer unwatches and a
     * dead watcher leaves no entry behind. A local actor may be both a target and a local watcher;
     * the helper unwatches it only when neither role remains.
     */

    private record Watch(ActorRef<?> target, Association from, String watcher) {
    }

    private record Unwatch(ActorRef<?> target, Association from, String watcher) {
    }

    private record Gone(Association from) {
    }

    private record LocalWatcher(ActorRef<?> watcher) {
    }

    private record Entry(Association from, String watcher) {
    }

    private final RemotingCore core;
    private final ActorRef<Object> actor;
    private final AtomicInteger entries = new AtomicInteger();

    WatchHelper(RemotingCore core) {
        this.core = core;
        Map<ActorRef<?>, Set<Entry>> table = new HashMap<>();
        Set<ActorRef<?>> locals = new HashSet<>();
        this.actor = core.system.spawn(Props.defaults(), self -> {
            self.become(Receive.handler()
                    .match(Watch.class, w -> {
                        if (w.target().isTerminated()) {
                            w.from().sendSystem(Frames.TERMINATED, core.wireAddress(w.target()), w.watcher());
                            return;
                        }
                        Set<Entry> s = table.computeIfAbsent(w.target(), k -> new HashSet<>());
                        if (s.isEmpty()) {
                            self.watch(w.target());
                        }
                        if (s.add(new Entry(w.from(), w.watcher()))) {
                            entries.incrementAndGet();
                        }
                    })
                    .match(Unwatch.class, u -> {
                        Set<Entry> s = table.get(u.target());
                        if (s != null) {
                            if (s.remove(new Entry(u.from(), u.watcher()))) {
                                entries.decrementAndGet();
                            }
                            if (s.isEmpty()) {
                                table.remove(u.target());
                                if (!locals.contains(u.target())) {
                                    self.unwatch(u.target());
                                }
                            }
                        }
                    })
                    .match(Gone.class, g -> table.entrySet().removeIf(t -> {
                        t.getValue().removeIf(e -> {
                            boolean theirs = e.from() == g.from();
                            if (theirs) {
                                entries.decrementAndGet();
                            }
                            return theirs;
                        });
                        if (t.getValue().isEmpty() && !locals.contains(t.getKey())) {
                            self.unwatch(t.getKey());
                        }
                        return t.getValue().isEmpty();
                    }))
                    .match(LocalWatcher.class, w -> {
                        if (locals.add(w.watcher())) {
                            self.watch(w.watcher());
                        }
                    })
                    .match(Terminated.class, t -> {
                        if (locals.remove(t.actor())) {
                            core.watcherStopped(t.actor());
                        }
                        Set<Entry> s = table.remove(t.actor());
                        if (s != null) {
                            entries.addAndGet(-s.size());
                            String address = core.wireAddress(t.actor());
                            for (Entry e : s) {
                                if (!e.from().isQuarantined()) {
                                    e.from().sendSystem(Frames.TERMINATED, address, e.watcher());
                                }
                            }
                        }
                    })
                    .build());
        });
    }

    int entries() {
        return entries.get();
    }

    ActorRef<Object> actor() {
        return actor;
    }

    void watch(Association from, String target, String watcher) {
        ActorRef<Object> t;
        try {
            t = core.resolve(target);
        } catch (IllegalArgumentException e) {
            from.sendSystem(Frames.TERMINATED, target, watcher);
            return;
        }
        if (t instanceof RemoteRefImpl) {
            from.sendSystem(Frames.TERMINATED, target, watcher);
            return;
        }
        actor.tell(new Watch(t, from, watcher));
    }

    void unwatch(Association from, String target, String watcher) {
        try {
            ActorRef<Object> t = core.resolve(target);
            actor.tell(new Unwatch(t, from, watcher));
        } catch (IllegalArgumentException e) {
            // nothing was watched under a malformed address
        }
    }

    void localWatcher(ActorRef<?> watcher) {
        actor.tell(new LocalWatcher(watcher));
    }

    void gone(Association from) {
        actor.tell(new Gone(from));
    }

    void close() {
        try {
            core.system.stop(actor);
        } catch (RuntimeException e) {
            // the system may be closing already
        }
    }
}
