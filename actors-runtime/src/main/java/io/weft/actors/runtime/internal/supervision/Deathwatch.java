package io.weft.actors.runtime.internal.supervision;

import io.weft.actors.ActorRef;
import io.weft.actors.Exit;
import io.weft.actors.LinkedActorFailedException;
import io.weft.actors.Terminated;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.weft.actors.runtime.internal.cell.Cell;
import io.weft.actors.runtime.internal.cell.LocalRef;
import io.weft.actors.runtime.internal.cell.SystemSignal;
import io.weft.actors.runtime.internal.cell.CellHost;

/**
 * Who watches, links to and parents whom: the registry behind watch, link/trap-exit and child
 * stopping (Erlang monitors and links, Akka death watch).
 */
public final class Deathwatch {

    /* design
     * One Node per actor that takes part (most actors never do: no cost for them), in `nodes` by
     * id. A Node is only ever read or changed inside `nodes.compute*` for its own id, so the map's
     * per-bin lock makes every change to one node atomic, and no two locks are ever held at once.
     *
     * Notification exactly once, and never missed (watch racing with termination):
     *   terminate: lifecycle := STOPPED (volatile), then remove the node, then notify everyone in it.
     *   watch:     add the watcher to the target's node, then read the target's lifecycle; if STOPPED,
     *              remove the watcher from the target's node, and notify only if it was still there.
     * Either the terminating thread's removal took the node with the watcher in it (it notifies, and
     * the late check finds nothing to remove), or the watcher was added to a fresh node after that
     * removal, and then its read sees STOPPED (the removal follows the STOPPED write), so the late
     * check notifies. Links use the same protocol on the partner's link set; children are stopped by
     * the parent's termination, and the parent is told of nothing (it watches if it wants to know).
     */

    private static final Logger LOG = LoggerFactory.getLogger(Deathwatch.class);

    private static final class Node {
        Set<Cell<?>> watchers;
        Set<Cell<?>> watching;
        Set<Cell<?>> links;
        Set<Cell<?>> children;
        Cell<?> parent;
        boolean trapExit;

        boolean isEmpty() {
            return empty(watchers) && empty(watching) && empty(links) && empty(children) && parent == null && !trapExit;
        }

        private static boolean empty(Set<?> s) {
            return s == null || s.isEmpty();
        }
    }

    private final CellHost system;
    private final ConcurrentHashMap<Long, Node> nodes = new ConcurrentHashMap<>();

    public Deathwatch(CellHost system) {
        this.system = system;
    }

    private Cell<?> cellOf(ActorRef<?> ref) {
        if (ref instanceof LocalRef<?> l && l.cell().weftSystem() == system) {
            return l.cell();
        }
        return null;
    }

    private static Set<Cell<?>> add(Set<Cell<?>> set, Cell<?> c) {
        Set<Cell<?>> s = set == null ? new HashSet<>(4) : set;
        s.add(c);
        return s;
    }

    private void update(Cell<?> cell, java.util.function.Consumer<Node> change) {
        nodes.compute(cell.id(), (k, n) -> {
            Node node = n == null ? new Node() : n;
            change.accept(node);
            return node.isEmpty() ? null : node;
        });
    }

    /** @return true if {@code member} was removed from the chosen set of {@code owner}'s node */
    private boolean removeFrom(Cell<?> owner, Cell<?> member, java.util.function.Function<Node, Set<Cell<?>>> set) {
        boolean[] removed = new boolean[1];
        nodes.computeIfPresent(owner.id(), (k, n) -> {
            Set<Cell<?>> s = set.apply(n);
            removed[0] = s != null && s.remove(member);
            return n.isEmpty() ? null : n;
        });
        return removed[0];
    }

    // ------------------------------------------------------------------ watch

    public void watch(Cell<?> watcher, ActorRef<?> target) {
        java.util.Objects.requireNonNull(target, "target");
        Cell<?> t = cellOf(target);
        if (t == null) {
            if (target instanceof io.weft.actors.spi.WatchableRef foreign) {
                foreign.addWatcher(watcher.ref());
                return;
            }
            if (target.isTerminated()) {
                send(watcher, new Terminated(target, null));
                return;
            }
            throw new IllegalArgumentException("cannot watch " + target + ": not an actor of system " + system.name());
        }
        if (t == watcher) {
            return;
        }
        update(t, n -> n.watchers = add(n.watchers, watcher));
        update(watcher, n -> n.watching = add(n.watching, t));
        if (t.isTerminated() && removeFrom(t, watcher, n -> n.watchers)) {
            removeFrom(watcher, t, n -> n.watching);
            send(watcher, new Terminated(t.ref(), t.failureCause()));
        }
    }

    public void unwatch(Cell<?> watcher, ActorRef<?> target) {
        if (target instanceof io.weft.actors.spi.WatchableRef foreign && cellOf(target) == null) {
            foreign.removeWatcher(watcher.ref());
            return;
        }
        Cell<?> t = cellOf(target);
        if (t != null) {
            removeFrom(t, watcher, n -> n.watchers);
            removeFrom(watcher, t, n -> n.watching);
        }
    }

    // ------------------------------------------------------------------ links

    public void link(Cell<?> self, ActorRef<?> other) {
        java.util.Objects.requireNonNull(other, "other");
        Cell<?> p = cellOf(other);
        if (p == null) {
            throw new IllegalArgumentException("cannot link to " + other + ": not an actor of system " + system.name());
        }
        if (p == self) {
            return;
        }
        update(self, n -> n.links = add(n.links, p));
        update(p, n -> n.links = add(n.links, self));
        if (p.isTerminated() && removeFrom(p, self, n -> n.links)) {
            exitSignal(p.ref(), p.failureCause(), self);
        }
    }

    public void unlink(Cell<?> self, ActorRef<?> other) {
        Cell<?> p = cellOf(other);
        if (p != null) {
            removeFrom(self, p, n -> n.links);
            removeFrom(p, self, n -> n.links);
        }
    }

    public void trapExit(Cell<?> self, boolean trap) {
        update(self, n -> n.trapExit = trap);
    }

    /** {@code partner} loses its link to {@code dead}: it gets an Exit, or fails, or nothing. */
    private void exitSignal(ActorRef<?> dead, Throwable cause, Cell<?> partner) {
        boolean[] trap = new boolean[2];
        nodes.computeIfPresent(partner.id(), (k, n) -> {
            if (n.links != null) {
                n.links.removeIf(c -> c.ref() == dead);
            }
            trap[0] = n.trapExit;
            return n.isEmpty() ? null : n;
        });
        if (trap[0]) {
            send(partner, new Exit(dead, cause));
        } else if (cause != null) {
            send(partner, new SystemSignal(new LinkedActorFailedException(dead, cause)));
        }
    }

    // ------------------------------------------------------------------ children

    public void adopt(Cell<?> parent, Cell<?> child) {
        update(parent, n -> n.children = add(n.children, child));
        update(child, n -> n.parent = parent);
        if (parent.isTerminated()) {
            child.stopFromOutside();
        }
    }

    /** Stops every child of {@code parent} (before the parent restarts, as Akka does). */
    public void stopChildren(Cell<?> parent) {
        List<Cell<?>> kids = new ArrayList<>();
        nodes.computeIfPresent(parent.id(), (k, n) -> {
            if (n.children != null) {
                kids.addAll(n.children);
            }
            return n;
        });
        for (Cell<?> c : kids) {
            c.stopFromOutside();
        }
    }

    // ------------------------------------------------------------------ termination

    /** Called by the terminating actor after it is STOPPED. */
    public void terminated(Cell<?> cell, Throwable cause) {
        Node n = nodes.remove(cell.id());
        if (n == null) {
            return;
        }
        ActorRef<?> ref = cell.ref();
        if (n.watchers != null) {
            for (Cell<?> w : n.watchers) {
                removeFrom(w, cell, x -> x.watching);
                if (!w.isTerminated()) {
                    send(w, new Terminated(ref, cause));
                }
            }
        }
        if (n.watching != null) {
            for (Cell<?> t : n.watching) {
                removeFrom(t, cell, x -> x.watchers);
            }
        }
        if (n.links != null) {
            for (Cell<?> p : n.links) {
                if (removeFrom(p, cell, x -> x.links)) {
                    exitSignal(ref, cause, p);
                }
            }
        }
        if (n.children != null) {
            for (Cell<?> c : n.children) {
                c.stopFromOutside();
            }
        }
        if (n.parent != null) {
            removeFrom(n.parent, cell, x -> x.children);
        }
    }

    /** @return the live children of {@code parent} (for tests and tools) */
    List<ActorRef<?>> children(Cell<?> parent) {
        List<ActorRef<?>> out = new ArrayList<>();
        nodes.computeIfPresent(parent.id(), (k, n) -> {
            if (n.children != null) {
                n.children.forEach(c -> out.add(c.ref()));
            }
            return n;
        });
        return out;
    }

    private void send(Cell<?> to, Object message) {
        try {
            to.sendMain(message, null);
        } catch (RuntimeException e) {
            LOG.warn("could not deliver {} to {}", message, to.ref(), e);
        }
    }
}
