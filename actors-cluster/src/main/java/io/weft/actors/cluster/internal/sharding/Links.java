package io.weft.actors.cluster.internal.sharding;

import io.weft.actors.ActorRef;
import io.weft.actors.cluster.Member;
import io.weft.actors.cluster.internal.sharding.Shard.Pending;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One region's refs to the other members' regions of its type, and what waits for a ref not known yet. */
final class Links {

    /* design
     * A region learns another member's region ref from the registry or from the reply-to of a
     * region message. Until then, what it sends there waits in a per-member FIFO queue and is
     * sent, in order, when the ref is learned, so region messages to one member always leave in
     * the order they were sent. Every send of entity messages is counted in the Ledger when it
     * actually leaves. When the member goes away, its queue is dropped; the entity messages in
     * it (never sent) are returned to be routed again.
     *
     * Owned by the region actor; no thread-safety of its own.
     */

    private record Out(List<Object> wire, ActorRef<?> sender, int count, Pending reroute) {
    }

    private final Map<Member, ActorRef<Object>> refs = new HashMap<>();
    private final Map<String, Member> parsed = new HashMap<>();
    private final Map<Member, ArrayDeque<Out>> waiting = new LinkedHashMap<>();
    private final Ledger ledger;

    Links(Ledger ledger) {
        this.ledger = ledger;
    }

    /** A member from its text form, parsed once per member (region messages name their sender by it). */
    Member member(String text) {
        Member m = parsed.get(text);
        if (m == null) {
            m = Member.parse(text);
            if (parsed.size() > 1_000) {
                parsed.clear();
            }
            parsed.put(text, m);
        }
        return m;
    }

    boolean knows(Member m) {
        return refs.containsKey(m);
    }

    /** Whether nothing waits for a ref. */
    boolean nothingWaiting() {
        return waiting.isEmpty();
    }

    /**
     * Learns a member's region ref and sends what waited for it.
     *
     * @return true if the ref was new
     */
    @SuppressWarnings("unchecked")
    boolean learn(Member m, ActorRef<?> ref) {
        if (ref == null || refs.containsKey(m)) {
            return false;
        }
        refs.put(m, (ActorRef<Object>) ref);
        ArrayDeque<Out> queued = waiting.remove(m);
        if (queued != null) {
            for (Out o : queued) {
                send(m, o.wire(), o.sender(), o.count(), o.reroute());
            }
        }
        return true;
    }

    /**
     * Sends a region message, or queues it until the ref is known.
     *
     * @param count the entity messages it carries (counted as sent in the ledger)
     * @param reroute for a single entity message, the message to route again if the member
     *     goes away before it could be sent; else null
     */
    void send(Member to, List<Object> wire, ActorRef<?> sender, int count, Pending reroute) {
        ActorRef<Object> ref = refs.get(to);
        if (ref == null) {
            waiting.computeIfAbsent(to, m -> new ArrayDeque<>()).add(new Out(wire, sender, count, reroute));
            return;
        }
        if (sender == null) {
            ref.tell(wire);
        } else {
            ref.tell(wire, sender);
        }
        ledger.sent(to, count);
    }

    /**
     * Forgets a member that went away.
     *
     * @return the entity messages that waited for its ref, to route again
     */
    List<Pending> forget(Member m) {
        refs.remove(m);
        List<Pending> back = new ArrayList<>();
        ArrayDeque<Out> queued = waiting.remove(m);
        if (queued != null) {
            for (Out o : queued) {
                if (o.reroute() != null) {
                    back.add(o.reroute());
                }
            }
        }
        return back;
    }
}
