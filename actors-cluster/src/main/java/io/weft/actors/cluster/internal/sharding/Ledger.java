package io.weft.actors.cluster.internal.sharding;

import io.weft.actors.cluster.Member;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** One region's delivery accounting: messages sent to other members and not yet confirmed, and confirmations owed. */
final class Ledger {

    /* design
     * Sender side: per destination member, `sent` counts the entity messages this region has
     * told that member's region (one per forwarded message, one per message inside a hand-off),
     * `acked` the highest cumulative acknowledgement received. When the member goes DOWN or is
     * removed, sent - acked is added to `lost` (lostWithNode): those messages may or may not have
     * been handled; nothing tells which.
     *
     * Receiver side: per source member, `settled` counts the messages from it that this region
     * is done with: handled by their entity, forwarded (the forward is then on this region's
     * books), handed over, or dropped and dead-lettered. Messages only kept in a buffer are not
     * settled. Every 100 ms the region tells each source its cumulative `settled` if it grew.
     * A message settled but not yet acknowledged when this member dies is counted lost by its
     * sender although it was handled: answered + lost >= sent, never less.
     *
     * A leaving member marks its acknowledgements; the source answers each with the count it got
     * (`seen`), and the leaver leaves the view only once every count is seen: an acknowledgement
     * still on its way when the others quarantine the leaver would be refused, and the messages
     * it confirmed counted as lost.
     *
     * Invariants: acked <= sent per destination (a larger ack, only possible from a confused
     * peer, is clamped); lost only grows; all state is owned by the region actor except `lost`,
     * an AtomicLong read by ClusterSharding.lostWithNode from any thread.
     */

    private static final class Out {
        long sent;
        long acked;
    }

    private static final class In {
        long settled;
        long told;
        long seen;
    }

    private final Map<Member, Out> out = new HashMap<>();
    private final Map<Member, In> in = new LinkedHashMap<>();
    private final AtomicLong lost;

    Ledger(AtomicLong lost) {
        this.lost = lost;
    }

    /** Counts messages told to a member's region. */
    void sent(Member to, int count) {
        if (count > 0) {
            out.computeIfAbsent(to, m -> new Out()).sent += count;
        }
    }

    /** A cumulative acknowledgement from a member's region. */
    void acked(Member from, long settled) {
        Out o = out.get(from);
        if (o != null && settled > o.acked) {
            o.acked = Math.min(settled, o.sent);
        }
    }

    /** A member went DOWN or was removed: what it did not confirm is lost with it. */
    void gone(Member m) {
        Out o = out.remove(m);
        if (o != null && o.sent > o.acked) {
            lost.addAndGet(o.sent - o.acked);
        }
        in.remove(m);
    }

    /** Whether every message sent to these members was confirmed. */
    boolean allConfirmed(Collection<Member> members) {
        for (Member m : members) {
            Out o = out.get(m);
            if (o != null && o.acked < o.sent) {
                return false;
            }
        }
        return true;
    }

    /** One message from a source is done with (null or this member: a local message, nothing to confirm). */
    void settle(Member source, Member self) {
        if (source != null && !source.equals(self)) {
            in.computeIfAbsent(source, m -> new In()).settled++;
        }
    }

    /** A source answered an acknowledgement of this (leaving) member: it has the count. */
    void ackSeen(Member source, long settled) {
        In i = in.get(source);
        if (i != null && settled > i.seen) {
            i.seen = settled;
        }
    }

    /** Makes every acknowledgement not yet answered due again (a leave starts: acknowledgements sent before it carried no leaving mark). */
    void reAcknowledge() {
        for (In i : in.values()) {
            if (i.seen < i.settled) {
                i.told = i.seen;
            }
        }
    }

    /** Whether every settled message was acknowledged to its source and the source answered that it has the count. */
    boolean allAcksSeen() {
        for (In i : in.values()) {
            if (i.seen < i.settled) {
                return false;
            }
        }
        return true;
    }

    /**
     * The acknowledgements due: sources whose settled count grew since last told, with the
     * count; marks them told.
     *
     * @param reachable whether a source's region ref is known (the others stay due)
     * @return source to cumulative settled count
     */
    Map<Member, Long> acksDue(java.util.function.Predicate<Member> reachable) {
        Map<Member, Long> due = new LinkedHashMap<>();
        for (Map.Entry<Member, In> e : in.entrySet()) {
            In i = e.getValue();
            if (i.settled > i.told && reachable.test(e.getKey())) {
                i.told = i.settled;
                due.put(e.getKey(), i.settled);
            }
        }
        return due;
    }
}
