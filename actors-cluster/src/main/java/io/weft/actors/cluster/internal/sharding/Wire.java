package io.weft.actors.cluster.internal.sharding;

import io.weft.actors.ActorRef;
import io.weft.actors.cluster.Member;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The messages regions exchange, and their form on the wire. */
final class Wire {

    /* design
     * Regions of one type on different members talk with ordinary remote tells. Their messages
     * travel as Lists of built-in types (String, Integer, Long, List, ActorRef), which every
     * CodecRegistry encodes without registration, so sharding needs no codec ids of its own; the
     * user's messages inside are encoded by the user's codec as usual. Each list starts with MARK,
     * a kind letter, the sending member (its text form) and the type:
     *
     *   m  one message for an entity: entity id, hops so far, the message (its sender is the
     *      tell's reply-to, so the entity sees the original sender)
     *   c  a claim: the shards the sender now owns and wants handed over
     *   h  a hand-off: a shard and the messages this member kept for it, each [id, message, sender]
     *   a  an acknowledgement: how many messages from the receiver this member has settled
     *      (handled, forwarded or dropped), cumulative, and whether the sender is leaving
     *   k  an acknowledgement seen: the answer to a leaving member's acknowledgement, so it
     *      leaves only once its last acknowledgements have arrived
     *   i  hello: tells the receiver the sender's region ref (the tell's reply-to)
     *   v  view: the hosts the sender routes by from now on (sent after each of its topology
     *      changes, after every message it routed by the previous hosts: links are FIFO)
     *
     * Decoding checks the shape and returns null for anything else (logged by the region).
     */

    static final String MARK = "weft.shard";

    /** A message for an entity with its sender, kept or handed over. */
    record Item(String entityId, Object message, ActorRef<?> sender) {
    }

    /** A message for an entity from another region. */
    record Msg(Member from, String entityId, int hops, Object message) {
    }

    /** A claim of shards. */
    record Claim(Member from, List<Integer> shards) {
    }

    /** A hand-off of one shard's kept messages. */
    record HandOff(Member from, int shard, List<Item> items) {
    }

    /** A cumulative acknowledgement. */
    record Ack(Member from, long settled, boolean leaving) {
    }

    /** The answer to a leaving member's acknowledgement. */
    record AckSeen(Member from, long settled) {
    }

    /** A region introduces itself. */
    record Hello(Member from) {
    }

    /** The hosts the sender routes by from now on. */
    record View(Member from, List<Member> hosts) {
    }

    private Wire() {
    }

    /** One entity message; {@code from} is the sending member's text form (kept by the region, not rebuilt per message). */
    static List<Object> msg(String from, String type, String entityId, int hops, Object message) {
        return List.of(MARK, "m", from, type, entityId, hops, message);
    }

    static List<Object> claim(Member from, String type, List<Integer> shards) {
        return List.of(MARK, "c", from.toString(), type, List.copyOf(shards));
    }

    static List<Object> handOff(Member from, String type, int shard, List<Item> items) {
        List<Object> encoded = new ArrayList<>(items.size());
        for (Item i : items) {
            encoded.add(Arrays.asList(i.entityId(), i.message(), i.sender()));
        }
        return List.of(MARK, "h", from.toString(), type, shard, encoded);
    }

    static List<Object> ack(Member from, String type, long settled, boolean leaving) {
        return List.of(MARK, "a", from.toString(), type, settled, leaving);
    }

    static List<Object> ackSeen(Member from, String type, long settled) {
        return List.of(MARK, "k", from.toString(), type, settled);
    }

    static List<Object> hello(Member from, String type) {
        return List.of(MARK, "i", from.toString(), type);
    }

    static List<Object> view(Member from, String type, List<Member> hosts) {
        List<Object> names = new ArrayList<>(hosts.size());
        for (Member m : hosts) {
            names.add(m.toString());
        }
        return List.of(MARK, "v", from.toString(), type, names);
    }

    /**
     * Decodes a region message of the given type.
     *
     * @param members parses a member's text form (the region caches them)
     *
     * @return the record, or null if the list is not a well-formed region message of the type
     */
    static Object decode(List<?> l, String type, java.util.function.Function<String, Member> members) {
        try {
            if (l.size() < 4 || !MARK.equals(l.get(0)) || !type.equals(l.get(3)) || !(l.get(1) instanceof String kind)) {
                return null;
            }
            Member from = members.apply((String) l.get(2));
            return switch (kind) {
                case "m" -> l.size() == 7 ? new Msg(from, (String) l.get(4), (Integer) l.get(5), l.get(6)) : null;
                case "c" -> l.size() == 5 ? new Claim(from, ints((List<?>) l.get(4))) : null;
                case "h" -> l.size() == 6 ? new HandOff(from, (Integer) l.get(4), items((List<?>) l.get(5))) : null;
                case "a" -> l.size() == 6 ? new Ack(from, (Long) l.get(4), (Boolean) l.get(5)) : null;
                case "k" -> l.size() == 5 ? new AckSeen(from, (Long) l.get(4)) : null;
                case "i" -> l.size() == 4 ? new Hello(from) : null;
                case "v" -> l.size() == 5 ? new View(from, members((List<?>) l.get(4))) : null;
                default -> null;
            };
        } catch (ClassCastException | IllegalArgumentException | NullPointerException e) {
            return null;
        }
    }

    private static List<Integer> ints(List<?> l) {
        List<Integer> out = new ArrayList<>(l.size());
        for (Object o : l) {
            out.add((Integer) o);
        }
        return out;
    }

    private static List<Member> members(List<?> l) {
        List<Member> out = new ArrayList<>(l.size());
        for (Object o : l) {
            out.add(Member.parse((String) o));
        }
        return List.copyOf(out);
    }

    private static List<Item> items(List<?> l) {
        List<Item> out = new ArrayList<>(l.size());
        for (Object o : l) {
            List<?> i = (List<?>) o;
            out.add(new Item((String) i.get(0), i.get(1), (ActorRef<?>) i.get(2)));
        }
        return out;
    }
}
