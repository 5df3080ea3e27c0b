package io.weft.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.cluster.internal.sharding.ShardPlacement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Shards of ids and owners of shards: deterministic, spread, and moving only what must move (rendezvous hashing). */
class ShardPlacementTest {

    private static final int SHARDS = 100;

    private static Member m(int port) {
        return new Member("s", "127.0.0.1", port, 1_000 + port);
    }

    private static Map<Integer, Member> owners(List<Member> hosts) {
        Map<Integer, Member> out = new HashMap<>();
        for (int s = 0; s < SHARDS; s++) {
            out.put(s, ShardPlacement.owner("counter", s, hosts));
        }
        return out;
    }

    @Test
    void idsSpreadOverAllShardsTheSameWayEveryTime() {
        int[] perShard = new int[SHARDS];
        for (int i = 0; i < 10_000; i++) {
            int s = ShardPlacement.shardOf("user-" + i, SHARDS);
            assertEquals(s, ShardPlacement.shardOf("user-" + i, SHARDS));
            perShard[s]++;
        }
        for (int s = 0; s < SHARDS; s++) {
            assertTrue(perShard[s] > 50 && perShard[s] < 150, "shard " + s + " got " + perShard[s] + " of 10,000 ids (mean 100)");
        }
        assertEquals(0, ShardPlacement.shardOf("anything", 1));
    }

    @Test
    void theOwnerDoesNotDependOnTheOrderOfTheHostsAndEveryHostGetsShards() {
        List<Member> hosts = List.of(m(1), m(2), m(3));
        Map<Integer, Member> owners = owners(hosts);
        assertEquals(owners, owners(List.of(m(3), m(1), m(2))), "every member computes the same owners from the same view");
        Map<Member, Integer> count = new HashMap<>();
        owners.values().forEach(o -> count.merge(o, 1, Integer::sum));
        for (Member h : hosts) {
            assertTrue(count.getOrDefault(h, 0) > 15, h + " owns " + count.get(h) + " of 100 shards");
        }
        assertNull(ShardPlacement.owner("counter", 0, List.of()), "no host, no owner");
    }

    @Test
    void aJoinOrLeaveMovesOnlyTheShardsOfThatMember() {
        List<Member> three = List.of(m(1), m(2), m(3));
        List<Member> four = new ArrayList<>(three);
        four.add(m(4));
        Map<Integer, Member> before = owners(three);
        Map<Integer, Member> after = owners(four);
        int moved = 0;
        for (int s = 0; s < SHARDS; s++) {
            if (!before.get(s).equals(after.get(s))) {
                assertEquals(m(4), after.get(s), "shard " + s + " moves only to the joiner");
                moved++;
            }
        }
        assertTrue(moved > 10 && moved < 45, moved + " of 100 shards moved to the fourth member (about a quarter)");
        Map<Integer, Member> without2 = owners(List.of(m(1), m(3)));
        for (int s = 0; s < SHARDS; s++) {
            if (!before.get(s).equals(m(2))) {
                assertEquals(before.get(s), without2.get(s), "shard " + s + " did not live on the leaver and stays");
            }
        }
    }
}
