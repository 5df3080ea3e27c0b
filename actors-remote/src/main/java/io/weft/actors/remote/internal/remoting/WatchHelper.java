package io.weft.actors.remote.internal.remoting;

import io.weft.actors.ActorRef;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Watches local actors on behalf of remote watchers, through an internal actor of the system. */
final class WatchHelper {

    /* design
     * One unnamed internal actor owns the table local target -> (association,
     * watcher address). It watches each target once; on Terminated it sends TERMINATED to every
     * association that asked (through the reliable control lane). Its state is touched only in its
     * handlers, so it needs no lock. A target already gone is answered at once.
     */

    private record Watch(ActorRef<?> target, Association from, String watcher) {
    }

    private record Unwatch(ActorRef<?> target, Association from, String watcher) {
    }

    private record Gone(Association from) {
    }

    private record Entry(Association from, String watcher) {
    }

    private final RemotingCore core;
    private final ActorRef<Object> actor;

    WatchHelper(RemotingCore core) {
        this.core = core;
        Map<ActorRef<?>, Set<Entry>> table = new HashMap<>();
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
                        s.add(new Entry(w.from(), w.watcher()));
                    })
                    .match(Unwatch.class, u -> {
                        Set<Entry> s = table.get(u.target());
                        if (s != null) {
                            s.remove(new Entry(u.from(), u.watcher()));
                            if (s.isEmpty()) {
                                table.remove(u.target());
                                self.unwatch(u.target());
                            }
                        }
                    })
                    .match(Gone.class, g -> table.values().forEach(s -> s.removeIf(e -> e.from() == g.from())))
                    .match(Terminated.class, t -> {
                        Set<Entry> s = table.remove(t.actor());
                        if (s != null) {
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
