package io.weft.actors.cluster;

import java.util.Comparator;
import java.util.Objects;

/**
 * One cluster member: the Weft remote address of its system and the incarnation of that system.
 * Each member publishes these when it joins, so every member maps the group's view to remote
 * addresses.
 *
 * @param system the actor system's name
 * @param host the host in its remote addresses
 * @param port the advertised remote port
 * @param incarnation the system's remoting incarnation ({@code Remoting.incarnation()}), not 0
 */
public record Member(String system, String host, int port, long incarnation) implements Comparable<Member> {

    private static final Comparator<Member> ORDER = Comparator.comparing(Member::host).thenComparingInt(Member::port)
            .thenComparingLong(Member::incarnation);

    /**
     * Checks the fields.
     *
     * @param system the system name
     * @param host the host
     * @param port the port
     * @param incarnation the incarnation
     */
    public Member {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(host, "host");
        if (port <= 0 || port > 65535 || incarnation == 0) {
            throw new IllegalArgumentException("member " + system + "@" + host + ":" + port + " incarnation " + incarnation
                    + ": the port must be 1..65535 and the incarnation not 0");
        }
    }

    /**
     * The address prefix of the member's actors: {@code weft://system@host:port}; append
     * {@code /name#id} to name one of them.
     *
     * @return the address prefix
     */
    public String address() {
        return "weft://" + system + "@" + host + ":" + port;
    }

    /**
     * Orders members by host, port and incarnation: the order the split-brain rule uses to break
     * a tie between equal halves (the half holding the lowest member stays).
     *
     * @param other another member
     * @return the comparison
     */
    @Override
    public int compareTo(Member other) {
        return ORDER.compare(this, other);
    }

    /**
     * The text form {@code system@host:port#incarnation}, which {@link #parse} reads back.
     *
     * @return the text form
     */
    @Override
    public String toString() {
        return system + "@" + host + ":" + port + "#" + incarnation;
    }

    /**
     * Reads the form {@link #toString} writes.
     *
     * @param text {@code system@host:port#incarnation}
     * @return the member
     * @throws IllegalArgumentException if the text is not of that form
     */
    public static Member parse(String text) {
        int at = text.indexOf('@');
        int hash = text.lastIndexOf('#');
        int colon = hash < 0 ? -1 : text.lastIndexOf(':', hash);
        if (at <= 0 || colon <= at + 1 || hash <= colon + 1) {
            throw new IllegalArgumentException("not a member \"" + text + "\": expected system@host:port#incarnation");
        }
        try {
            return new Member(text.substring(0, at), text.substring(at + 1, colon), Integer.parseInt(text.substring(colon + 1, hash)),
                    Long.parseLong(text.substring(hash + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a member \"" + text + "\": expected system@host:port#incarnation", e);
        }
    }
}
