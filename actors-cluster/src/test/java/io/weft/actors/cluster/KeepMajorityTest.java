package io.weft.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.cluster.internal.KeepMajority;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeepMajorityTest {

    private static Member m(int port) {
        return new Member("s", "127.0.0.1", port, port);
    }

    @Test
    void theMinorityDownsAndTheMajorityStays() {
        Set<Member> stable = Set.of(m(1), m(2), m(3));
        assertFalse(KeepMajority.mustDown(stable, List.of(m(1), m(2))));
        assertTrue(KeepMajority.mustDown(stable, List.of(m(3))));
        assertFalse(KeepMajority.mustDown(stable, List.of(m(1), m(2), m(3))));
        assertFalse(KeepMajority.mustDown(Set.of(), List.of(m(3))), "no stable membership yet: never down");
    }

    @Test
    void equalHalvesKeepTheSideWithTheLowestMember() {
        Set<Member> stable = Set.of(m(1), m(2), m(3), m(4));
        assertFalse(KeepMajority.mustDown(stable, List.of(m(1), m(4))));
        assertTrue(KeepMajority.mustDown(stable, List.of(m(2), m(3))));
        assertTrue(KeepMajority.mustDown(Set.of(m(1), m(2)), List.of(m(2))), "of two, the survivor without the lowest downs");
        assertFalse(KeepMajority.mustDown(Set.of(m(1), m(2)), List.of(m(1))));
    }

    @Test
    void newMembersDoNotCountTowardsTheMajority() {
        Set<Member> stable = Set.of(m(1), m(2), m(3));
        assertTrue(KeepMajority.mustDown(stable, List.of(m(3), m(7), m(8))), "joiners on the minority side do not make it a majority");
    }

    @Test
    void memberTextRoundTrips() {
        Member x = new Member("shop", "10.0.0.5", 25520, -42);
        assertTrue(Member.parse(x.toString()).equals(x));
        assertTrue(x.address().equals("weft://shop@10.0.0.5:25520"));
    }
}
